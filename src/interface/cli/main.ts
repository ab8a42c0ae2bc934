import { runOperatorCli } from '../../composition/cli/operator-cli';

// The operator CLI: `npm run cli -- <command>`, `node dist/interface/cli/main.js <command>`.
runOperatorCli(process.argv.slice(2));
