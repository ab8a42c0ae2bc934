import { join } from 'node:path';
import ts from 'typescript';

/**
 * One definition per response: a use case's resource type and the response DTO that publishes it
 * are held to each other by the compiler. These compile the real DTO files with one source edited,
 * as a change would, and expect tsc to refuse it with a message that names the field.
 */
const ROOT = join(__dirname, '..', '..', '..', '..', '..');
const BALANCE_RESOURCE = join(ROOT, 'src/interface/shared/balance-resources.ts');
const BALANCE_DTO = join(ROOT, 'src/interface/http/partner/dto/balance-response.dto.ts');
const TRANSACTION_DTO = join(ROOT, 'src/interface/http/partner/dto/transaction-response.dto.ts');
const BALANCE_CONTROLLER = join(ROOT, 'src/interface/http/partner/balance.controller.ts');

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  esModuleInterop: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  types: ['node'],
};

let previous: ts.Program | undefined;

/** The compiler's complaints about `file`, with each edit applied to its file's text first. */
function problemsOf(file: string, edits: Record<string, (text: string) => string> = {}): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => {
    const text = readFile(name);
    const edit = edits[name];
    if (text === undefined || !edit) return text;
    const edited = edit(text);
    if (edited === text) throw new Error(`the edit of ${name} changed nothing`);
    return edited;
  };
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) => {
    const text = host.readFile(name);
    return text === undefined ? getSourceFile(name, language) : ts.createSourceFile(name, text, language);
  };
  const program = ts.createProgram([file], OPTIONS, host, previous);
  previous = program;
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} was not compiled`);
  return program
    .getSemanticDiagnostics(source)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const addedToBalanceResource = (text: string): string =>
  text.replace('  environment: Environment;\n}', '  environment: Environment;\n  overdraft: string;\n}');

describe('a response DTO and its resource are one definition', () => {
  it('the DTOs as they are compile', () => {
    expect(problemsOf(BALANCE_DTO)).toEqual([]);
    expect(problemsOf(TRANSACTION_DTO)).toEqual([]);
  }, 60_000);

  it('a field added to the resource without the DTO is refused', () => {
    const problems = problemsOf(BALANCE_DTO, { [BALANCE_RESOURCE]: addedToBalanceResource });
    expect(problems.join('\n')).toContain('the resource field is not in the DTO: overdraft');
  }, 60_000);

  it('a field added to the DTO without the resource is refused', () => {
    const problems = problemsOf(BALANCE_DTO, {
      [BALANCE_DTO]: (text) =>
        text.replace(
          '  environment!: string;\n}',
          "  environment!: string;\n\n  @ApiProperty({ type: 'string' })\n  overdraft!: string;\n}",
        ),
    });
    expect(problems.join('\n')).toContain('the DTO field is not in the resource: overdraft');
  }, 60_000);

  it('a DTO field that cannot hold what the resource answers is refused', () => {
    // The service answers operator_ref: null until an order succeeds; a DTO saying "always a string" would be wrong.
    const problems = problemsOf(TRANSACTION_DTO, {
      [TRANSACTION_DTO]: (text) => text.replace('operator_ref!: string | null;', 'operator_ref!: string;'),
    });
    expect(problems.join('\n')).toContain("the DTO field cannot hold the resource's values: operator_ref");
  }, 60_000);

  it('a route sent through a compiled serializer must answer what its DTO describes', () => {
    expect(problemsOf(BALANCE_CONTROLLER)).toEqual([]);
    const wrong = problemsOf(BALANCE_CONTROLLER, {
      [BALANCE_CONTROLLER]: (text) =>
        text.replace(
          'balance(@CurrentCaller() caller: Caller): Promise<BalanceResource> {\n    return balanceResource(caller, await this.queries.execute(new GetBalance(caller)));',
          "balance(@CurrentCaller() caller: Caller): Promise<{ available: string }> {\n    return Promise.resolve({ available: '0.00' });",
        ),
    });
    expect(wrong.join('\n')).toMatch(/Unable to resolve signature of method decorator[^]*BalanceResponseDto/);
  }, 60_000);
});
