// A Node readline question, as npm-installed CLIs ask on Windows:
// y writes config.json, anything else leaves it.
const readline = require('readline');
const fs = require('fs');
const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
rl.question('Overwrite config.json? (y/n) ', (answer) => {
  rl.close();
  if (answer.trim() === 'y') {
    fs.writeFileSync('config.json', '{"overwritten": true}\n');
    console.log('overwrote config.json');
    process.exit(0);
  }
  console.log('kept config.json');
  process.exit(1);
});
