/**
 * The Node.js version vidops needs (package.json `engines`), checked before anything else loads:
 * `npm start` on an older Node stops with one sentence saying what to install, instead of a
 * syntax or API error from deep inside a dependency.
 */
export const REQUIRED_NODE = '20.19.0';

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

/** The sentence to stop with when `version` is older than `required`; undefined when it will do. */
export function nodeVersionProblem(version: string, required: string = REQUIRED_NODE): string | undefined {
  const have = parts(version);
  const need = parts(required);
  for (let i = 0; i < need.length; i++) {
    const h = have[i] ?? 0;
    const n = need[i] ?? 0;
    if (h > n) return undefined;
    if (h < n)
      return `vidops needs Node.js ${required} or newer; this is Node.js ${version.replace(/^v/, '')}. Install a newer Node.js (e.g. \`nvm install 22\`) and run \`npm start\` again.`;
  }
  return undefined;
}

export function exitOnOldNode(version: string = process.versions.node): void {
  const problem = nodeVersionProblem(version);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
