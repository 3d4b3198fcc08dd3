#!/usr/bin/env node
// Asks about a command the way AI shell helpers built on @inquirer/prompts
// do: it prints the command, asks "Run this command?" (a confirm, default
// Yes), then "How should it run?" (a select a person can filter by typing
// the start of an option). It reports the answers and runs nothing, so it
// is safe anywhere; the people recordings in recordings/testdata/people
// were made with it.
//
// Exit status: 0 when the questions were answered, whatever the answers;
// 130 on Ctrl-C (inquirer's ExitPromptError).
import { confirm, select } from '@inquirer/prompts';

try {
  console.log('The command to run:\n  rm -rf build/cache\n');
  const run = await confirm({ message: 'Run this command?', default: true });
  if (!run) {
    console.log('not run');
    process.exit(0);
  }
  const how = await select({
    message: 'How should it run?',
    choices: [
      { name: 'In the foreground', value: 'foreground' },
      { name: 'In the background', value: 'background' },
      { name: 'Dry run (print only)', value: 'dry-run' },
    ],
  });
  console.log(`would run rm -rf build/cache (${how}); nothing was run`);
} catch (err) {
  if (err instanceof Error && err.name === 'ExitPromptError') {
    process.exit(130);
  }
  throw err;
}
