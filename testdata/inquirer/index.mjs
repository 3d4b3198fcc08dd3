#!/usr/bin/env node
// A small program that asks the way real Node CLIs do, with @inquirer/prompts,
// so yume-cli's PTY rules and tests have a genuine inquirer screen to match:
// a confirm ("Delete build/ directory?", default No), then a select
// ("Which action?", three choices). It reports each decision on its own line
// right after the answer ("deleted build/" or "kept build/", then
// "action: <value>") and touches no file, so it is safe to run anywhere.
//
// Exit status: 0 when both questions were answered, whatever the answers
// (declining a deletion is a normal answer, as in real tools); 130 when the
// user pressed Ctrl-C (inquirer's ExitPromptError), printing nothing more.
import { confirm, select } from '@inquirer/prompts';

try {
  const remove = await confirm({ message: 'Delete build/ directory?', default: false });
  console.log(remove ? 'deleted build/' : 'kept build/');

  const action = await select({
    message: 'Which action?',
    choices: [
      { name: 'Build', value: 'build', description: 'Compile the project into build/' },
      { name: 'Test', value: 'test', description: 'Run the test suite' },
      { name: 'Deploy', value: 'deploy', description: 'Upload build/ to the server' },
    ],
  });
  console.log(`action: ${action}`);
} catch (err) {
  if (err instanceof Error && err.name === 'ExitPromptError') {
    process.exit(130);
  }
  throw err;
}
