/** A page's worth of archives as the service lists them (the fields the adapter reads), numbered from 0. */
export function listedArchives(count: number) {
  return Array.from({ length: count }, (_v, i) => ({
    id: `b8f5c7e2-1234-4abc-9def-${String(i).padStart(12, '0')}`,
    sessionId: 'SESSIONID',
    name: `rec-${i}`,
    status: 'available',
    createdAt: 1_395_187_930_000 + i,
    duration: 22,
    size: 2_909_274,
    reason: '',
    url: null,
  }));
}
