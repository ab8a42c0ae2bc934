import { runOperatorCli } from './composition/cli/operator-cli';

// The operator CLI: `npm run cli -- <command>`, `node dist/cli-main.js <command>` (or its older path,
// `node dist/interface/cli/main.js`, which the build keeps).
runOperatorCli(process.argv.slice(2));
