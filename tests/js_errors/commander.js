// commander: programs defined wrongly, and command lines that do not fit them (exitOverride
// turns each exit into a thrown CommanderError).
'use strict';
const { Command, Option, Argument, InvalidArgumentError } = require('commander');
const { cases, run } = require('./_harness');

const add = cases('commander');
const silent = { writeOut: () => {}, writeErr: () => {}, outputError: () => {} };

function program() {
  return new Command('tool').exitOverride().configureOutput(silent);
}

const parse = (p, ...args) => p.parse(args, { from: 'user' });

add('unknown option', () => parse(program().option('-v, --verbose'), '--colour'));
add('unknown command', () => {
  const p = program();
  p.command('build');
  p.command('serve');
  return parse(p, 'deploy');
});
add('missing required argument', () => parse(program().argument('<file>').action(() => {})));
add('missing option argument', () => parse(program().option('-p, --port <number>'), '--port'));
add('missing mandatory option', () => parse(program().requiredOption('-c, --config <path>')));
add('invalid choice', () =>
  parse(program().addOption(new Option('-s, --size <size>').choices(['small', 'large'])), '--size', 'huge'),
);
add('invalid argument choice', () =>
  parse(program().addArgument(new Argument('<mode>').choices(['fast', 'slow'])).action(() => {}), 'medium'),
);
add('too many arguments', () => parse(program().allowExcessArguments(false).action(() => {}), 'a', 'b'));
add('conflicting options', () =>
  parse(program().addOption(new Option('--json').conflicts('yaml')).option('--yaml'), '--json', '--yaml'),
);
add('argParser rejects the value', () =>
  parse(
    program().option('-n, --count <n>', 'how many', (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError('Not a number.');
      return Number(value);
    }),
    '--count',
    'ten',
  ),
);
add('program.error', () => program().error('something went wrong', { exitCode: 2, code: 'tool.failed' }));
add('help requested', () => parse(program().option('-v'), '--help'));
add('version requested', () => parse(program().version('1.2.3'), '--version'));
add('addCommand without a name', () => program().addCommand(new Command()));
add('duplicate option flag', () => program().option('-d, --debug').option('-d, --dry-run'));
add('duplicate command name', () => {
  const p = program();
  p.command('run');
  p.command('run');
});
add('alias same as the name', () => program().command('run').alias('run'));
add('parse of a string', () => program().parse('a b c'));
add('unknown addHelpText position', () => program().addHelpText('middle', 'text'));
add('unknown hook event', () => program().hook('beforeEverything', () => {}));
add('storeOptionsAsProperties after options', () => program().option('-x').storeOptionsAsProperties());
add('argument after a variadic one', () => program().argument('<files...>').argument('<dest>'));
add('default for a required argument', () => program().addArgument(new Argument('<file>').default('a.txt')));
add('outputHelp callback that returns nothing', () => program().outputHelp(() => undefined));
run();
