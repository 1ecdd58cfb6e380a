/**
 * Every error code the code can answer, found in the source (TypeScript's own parser, no type checking): the
 * `code` argument of each error helper of shared/errors.ts, the `code` of each error detail written as an object
 * literal (`{ object, property, message, code }`), and the codes the helpers give by themselves. With the status
 * the helper (or the enclosing `new ApiError(status, ...)`) answers, where the source says it.
 *
 * test/openapi/error-codes.unit.test.ts holds the catalogue (shared/http/error-codes.ts) to this list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where answers are made: the handlers, the shared code, and the local gateway's own answers. */
const SCANNED = ['functions', 'shared', 'scripts/local'];

/** Each helper of shared/errors.ts that takes a code: the argument's index and the status it answers. */
const CODE_ARGUMENT: Record<string, { index: number; status?: number }> = {
  errorDetail: { index: 3 },
  unprocessable: { index: 3, status: 422 },
  badRequest: { index: 3, status: 400 },
  gone: { index: 3, status: 410 },
  unauthorized: { index: 3, status: 401 },
  conflict: { index: 3, status: 409 },
  serviceUnavailable: { index: 2, status: 503 },
  rateLimited: { index: 2, status: 429 },
};

export interface FoundCode {
  code: string;
  /** Undefined when the source does not say (a detail built apart from its ApiError). */
  status?: number;
  where: string;
}

export interface Scan {
  codes: FoundCode[];
  /** Code expressions the scan cannot read as literals: each must be resolved by hand (`where: text`). */
  unresolved: string[];
}

function sourceFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The string literals an expression can evaluate to (both arms of a conditional), or undefined when it is not made of them. */
function literals(expression: ts.Expression): string[] | undefined {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression.text];
  if (ts.isParenthesizedExpression(expression)) return literals(expression.expression);
  if (ts.isConditionalExpression(expression)) {
    const [whenTrue, whenFalse] = [literals(expression.whenTrue), literals(expression.whenFalse)];
    return whenTrue && whenFalse ? [...whenTrue, ...whenFalse] : undefined;
  }
  return undefined;
}

/** The status of the `new ApiError(<status>, ...)` or status-taking call the node sits in, when it is a number literal. */
function enclosingStatus(node: ts.Node): number | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if ((ts.isNewExpression(parent) || ts.isCallExpression(parent)) && parent.arguments?.[0] && ts.isNumericLiteral(parent.arguments[0])) {
      return Number(parent.arguments[0].text);
    }
    if (ts.isFunctionLike(parent)) return undefined;
  }
  return undefined;
}

const calleeName = (call: ts.CallExpression): string | undefined =>
  ts.isIdentifier(call.expression) ? call.expression.text : ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : undefined;

interface Helper {
  index: number;
  status?: number;
}

/** The function a node sits in, with the name it is declared under (a function declaration or a `const f = (...) =>`). */
function enclosingFunction(node: ts.Node): { declaration: ts.SignatureDeclaration; name?: string; exported: boolean } | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (!ts.isFunctionLike(parent)) continue;
    const holder = ts.isFunctionDeclaration(parent) ? parent : ts.isVariableDeclaration(parent.parent) ? parent.parent.parent.parent : undefined;
    const name = ts.isFunctionDeclaration(parent)
      ? parent.name?.text
      : ts.isVariableDeclaration(parent.parent) && ts.isIdentifier(parent.parent.name)
        ? parent.parent.name.text
        : undefined;
    const exported = !!holder && ts.canHaveModifiers(holder) && !!ts.getModifiers(holder)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    return { declaration: parent, name, exported };
  }
  return undefined;
}

interface Source {
  file: string;
  source: ts.SourceFile;
}

/**
 * One pass over the sources with the helpers known so far. A helper call whose code is a parameter of the
 * function it sits in makes that function a helper too (`const invalid = (property, message, code = 'invalid') =>
 * unprocessable(...)`): known to its own file, or to every file when exported; the next pass reads its calls.
 */
function pass(sources: Source[], exportedHelpers: Map<string, Helper>, fileHelpers: Map<string, Map<string, Helper>>): Scan & { learned: boolean } {
  const codes: FoundCode[] = [];
  const unresolved: string[] = [];
  let learned = false;
  for (const { file, source } of sources) {
    const own = fileHelpers.get(file) ?? new Map<string, Helper>();
    fileHelpers.set(file, own);
    const helperOf = (name: string | undefined): Helper | undefined =>
      name === undefined ? undefined : (own.get(name) ?? exportedHelpers.get(name) ?? CODE_ARGUMENT[name]);
    const where = (node: ts.Node) => `${relative('.', file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const found = (expression: ts.Expression, status: number | undefined) => {
      const values = literals(expression);
      if (values) {
        for (const code of values) codes.push({ code, status, where: where(expression) });
        return;
      }
      const within = enclosingFunction(expression);
      const parameter = ts.isIdentifier(expression)
        ? within?.declaration.parameters.findIndex((candidate) => ts.isIdentifier(candidate.name) && candidate.name.text === expression.text)
        : -1;
      if (within?.name !== undefined && parameter !== undefined && parameter >= 0) {
        const table = within.exported ? exportedHelpers : own;
        if (!table.has(within.name)) {
          table.set(within.name, { index: parameter, status });
          learned = true;
        }
        const initializer = within.declaration.parameters[parameter]!.initializer;
        if (initializer) found(initializer, status);
        return;
      }
      unresolved.push(`${where(expression)}: ${expression.getText(source)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const helper = helperOf(calleeName(node));
        const argument = helper && node.arguments[helper.index];
        if (helper && argument && !ts.isSpreadElement(argument)) found(argument, helper.status ?? enclosingStatus(node));
      }
      // A detail written out: an object literal with object, message and code (not a schema of one: \`z.string()\`).
      if (ts.isObjectLiteralExpression(node)) {
        const properties = new Map(
          node.properties.flatMap((property) =>
            (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) && ts.isIdentifier(property.name)
              ? [[property.name.text, property] as const]
              : [],
          ),
        );
        const code = properties.get('code');
        if (code && properties.has('object') && properties.has('message') && ts.isPropertyAssignment(code) && !ts.isCallExpression(code.initializer)) {
          found(code.initializer, enclosingStatus(node));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { codes, unresolved, learned };
}

export function scanErrorCodes(): Scan {
  const sources = SCANNED.flatMap(sourceFiles).map((file) => ({
    file,
    source: ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true),
  }));
  const exportedHelpers = new Map<string, Helper>();
  const fileHelpers = new Map<string, Map<string, Helper>>();
  // Until no new helper turns up (helpers of helpers): a few passes.
  for (;;) {
    const { codes, unresolved, learned } = pass(sources, exportedHelpers, fileHelpers);
    if (!learned) return { codes, unresolved };
  }
}
