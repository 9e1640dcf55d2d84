/** One step of a backend's schema history. Versions only grow; an applied step never changes. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
