// yargs: parsers configured wrongly, and argv that fails their validation.  `.fail(false)`
// makes a failure throw; without it, and with exitProcess(false), yargs throws its YError.
//
// Loaded as an ES module: `require('yargs')` gets build/index.cjs, one minified line, where
// every error would be "line 1"; `import` gets build/lib/*.js, whose lines mean something.
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const { cases, run } = require('./_harness');

const add = cases('yargs');

async function main() {
  // `import` does not search NODE_PATH: find the package the way `require` does, then import it.
  const root = path.dirname(require.resolve('yargs/package.json'));
  const yargs = (await import(pathToFileURL(path.join(root, 'index.mjs')).href)).default;
  // Throws Error(msg) from usage.fail.
  const strict = (argv) => yargs(argv).scriptName('tool').exitProcess(false).fail(false).strict();
  // Prints, then throws YError(msg).
  const plain = (argv) => yargs(argv).scriptName('tool').exitProcess(false).showHelpOnFail(false);

  add('unknown argument', () => strict(['--colour']).option('color', { type: 'string' }).parse());
  add('missing required argument', () => strict([]).option('config', { demandOption: true }).parse());
  add('not enough commands', () => strict([]).command('build', 'build it').demandCommand(1).parse());
  add('unknown command', () => strict(['deploy']).command('build', 'build it').demandCommand(1).parse());
  add('invalid choice', () => strict(['--size', 'huge']).option('size', { choices: ['small', 'large'] }).parse());
  add('implied argument missing', () =>
    strict(['--user', 'x']).option('user', { implies: 'password' }).option('password').parse(),
  );
  add('conflicting arguments', () =>
    strict(['--json', '--yaml']).option('json', { conflicts: 'yaml' }).option('yaml').parse(),
  );
  add('check returns false', () => strict(['--n', '3']).option('n').check((argv) => argv.n > 5).parse());
  add('requiresArg without a value', () =>
    strict(['--name']).option('name', { requiresArg: true, type: 'string' }).parse(),
  );
  add('too many positional arguments', () =>
    strict(['build', 'a', 'b', 'c']).command('build <target>', 'build it').demandCommand(1, 1).parse(),
  );
  add('YError for an unknown argument', () => plain(['--nope']).strict().parse());
  add('YError for a missing argument', () => plain([]).demandOption('out').parse());
  add('YError for not enough commands', () => plain([]).demandCommand(1, 'Pick a command').parse());
  add('coerce without a function', () => yargs([]).coerce('x'));
  add('command module without a name', () => yargs([]).command({ handler: () => {} }));
  add('middleware that is not a function', () => yargs([]).middleware([42]).parse());
  add('usage description without $0', () => yargs([]).usage('tool <file>', 'does it', () => {}, () => {}));
  add('parseSync with an async handler', () =>
    yargs(['go']).command('go', 'go', () => {}, async () => {}).exitProcess(false).parseSync(),
  );
  add('extends a circular config', () =>
    yargs([]).config({ extends: path.join(__dirname, 'fixtures', 'yargs-self.json') }).parse(),
  );
  add('positional with a bad choice', () =>
    strict(['copy', 'x']).command('copy <mode>', 'copy', (y) => y.positional('mode', { choices: ['a', 'b'] })).parse(),
  );
  add('count of unknown commands', () =>
    strict(['a', 'b']).command('run', 'run it').demandCommand(1).recommendCommands().parse(),
  );
  await run();
}

main();
