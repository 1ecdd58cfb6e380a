import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { GLOBAL_INDEXES } from '#shared/db/table-definition.ts';
import { METRICS_NAMESPACE, METRICS_SERVICE } from '#shared/metrics.ts';
import { DEFAULT_MEMORY_MB } from '#shared/routes.ts';

/** Memory of a function whose route names none (shared/routes.ts `memory`), in MB. Lambda allocates CPU in proportion. */
export const FUNCTION_MEMORY_MB = DEFAULT_MEMORY_MB;
/** Timeout of every API function, in seconds (API Gateway's own integration timeout is 30 s). */
export const FUNCTION_TIMEOUT_SECONDS = 10;
/** How long function logs are kept. */
export const FUNCTION_LOG_RETENTION = RetentionDays.ONE_MONTH;

/** `users-create` -> `UsersCreate`: a stable construct id (and so logical id) per handler. */
export function constructIdFor(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** The repository root: handler entries, package.json (for the `#shared/*` imports) and the lock file live here. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The module under functions/ that serves a handler name. */
export function handlerEntry(handler: string): string {
  return fileURLToPath(new URL(`../../functions/${handler}.ts`, import.meta.url));
}

/**
 * IAM actions per access mode. TransactWriteItems and TransactGetItems are not IAM actions of their
 * own: DynamoDB authorizes each item of a transaction by its Put/Update/Delete/ConditionCheckItem
 * (or GetItem) action, so these lists cover transactions too.
 */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
export const TABLE_WRITE_ACTIONS = [
  ...TABLE_READ_ACTIONS,
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

/** What `node:http` means in a function's bundle (API_FUNCTION_BUNDLING.esbuildArgs). */
export const STATUS_CODES_MODULE = fileURLToPath(new URL('../../shared/http/status-codes.ts', import.meta.url));

/** esbuild settings of every API function; exported so the benchmark bundles exactly the same way. */
export const API_FUNCTION_BUNDLING = {
  minify: true,
  sourceMap: true,
  format: OutputFormat.ESM,
  target: 'node24',
  // The Node.js 24 runtime's AWS SDK v3. Bundling it instead (minified, tree-shaken) was measured for issue 35
  // (bench/notes.md, "The AWS SDK: the runtime's against bundled"): no faster from process start to served,
  // ~325 KiB more per bundle, and the bench's cold twins could no longer record a function's calls.
  externalModules: ['@aws-sdk/*'],
  // CommonJS dependencies bundled into an ESM file may still call require().
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  mainFields: ['module', 'main'],
  // @middy/util (under @middy/core) imports `node:http` for STATUS_CODES alone, and loading `node:http` at import
  // costs a cold start ~25 ms (its server half; the SDK's client loads only `node:https`). The alias gives the
  // bundles a copy of that table instead (shared/http/status-codes.ts); a bundled import of anything else from
  // `node:http` fails the build. Absolute path: NodejsFunction runs esbuild locally from another directory.
  esbuildArgs: { '--alias:node:http': STATUS_CODES_MODULE },
  // Deployed functions geocode with Amazon Location Service: fixing GEOCODER at bundle time lets esbuild
  // drop the other adapters, so the sandbox's postal-code data never reaches a bundle (docs/geocoding.md).
  define: {
    'process.env.GEOCODER': JSON.stringify('amazon-location'),
    // Pushes go through SNS mobile push; the sandbox sink (shared/push/sandbox.ts) stays out of the bundles.
    'process.env.PUSH_SENDER': JSON.stringify('sns'),
    // Fault injection is for the reliability tests (shared/db/faults.ts, run unbundled): out of every bundle.
    'process.env.DYNAMODB_FAULTS': 'undefined',
    // The bench's round-trip and CPU headers (shared/db/stats.ts, shared/http/bench-headers.ts): out of every bundle.
    'process.env.DYNAMODB_STATS': 'undefined',
  },
} satisfies BundlingOptions;

/**
 * What serves only the tests, the bench or `npm start`, never a deployed function: fault injection, the
 * sandboxes of outside services (the postal-code geocoder and its data, the push sink) and the tools' own
 * folders. The constants of API_FUNCTION_BUNDLING.define make the shared modules' only imports dead code in a
 * bundle; test/infra/deployed-bundles.test.ts builds every function of the stack and fails if any bundle holds
 * one of these (project paths: a trailing `/` names a folder) or a package listed here or in devDependencies.
 */
export const TEST_ONLY_MODULES = {
  project: [
    'shared/db/faults.ts',
    'shared/db/stats.ts',
    'shared/http/bench-headers.ts',
    'shared/geocoding/sandbox.ts',
    'shared/push/sandbox.ts',
    'scripts/',
    'test/',
    'bench/',
  ],
  packages: ['zipcodes'],
} as const;

/**
 * What only the OpenAPI document runs (`npm run openapi` at build time): its builder and the schemas of the answers.
 * No function validates what it answers, so a bundle holding one of these would carry and build documentation at
 * every cold start. test/architecture/layout.unit.test.ts keeps the imports out; test/infra/deployed-bundles.test.ts
 * fails if any bundle holds one of these folders.
 */
export const DOCUMENT_ONLY_MODULES = ['shared/openapi/', 'shared/schemas/responses/'] as const;

/** Read-only (RO) or read-write (RW). */
export type AccessMode = 'RO' | 'RW';

export interface BindTableProps {
  table: ITable;
  /** @default 'RO' */
  accessMode?: AccessMode;
}

export interface ApiFunctionProps extends Omit<NodejsFunctionProps, 'entry'> {
  /** Module under functions/ (without extension) that exports `handler`. */
  handlerName: string;
}

/** The table and each of its indexes by name: no `index/*` wildcard in any grant. */
export function tableResourceArns(table: ITable): string[] {
  return [table.tableArn, ...GLOBAL_INDEXES.map((index) => `${table.tableArn}/index/${index.name}`)];
}

/**
 * A NodejsFunction with the house defaults: Node.js 24 on arm64, ESM bundle with its source map beside it
 * (not enabled at run time: see docs/operations.md, "Reading a stack trace"),
 * AWS SDK v3 left to the runtime, an explicit log group with retention, JSON logs at `info`, X-Ray
 * active tracing and the Powertools metrics namespace (shared/metrics.ts). Its role may write only to
 * its own log group (no AWS managed policy). Grant table access with `bindTable`, never with a broader grant.
 */
export class ApiFunction extends NodejsFunction {
  public readonly handlerName: string;

  public constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    const { handlerName, environment, bundling, ...rest } = props;
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: FUNCTION_LOG_RETENTION,
      // Logs are operational, not records; they go with the stack (retention bounds them anyway).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Instead of AWSLambdaBasicExecutionRole (logs:* on every log group): write to this function's own group.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
    super(scope, id, {
      entry: handlerEntry(handlerName),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_MEMORY_MB,
      timeout: Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      logGroup,
      role,
      tracing: Tracing.ACTIVE,
      bundling: { ...API_FUNCTION_BUNDLING, ...bundling, define: { ...bundling?.define, ...API_FUNCTION_BUNDLING.define } },
      environment: {
        LOG_LEVEL: 'info',
        POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        ...environment,
      },
      ...rest,
    });
    this.handlerName = handlerName;
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: 'Invoked synchronously only (API Gateway, Step Functions RequestResponse): failures reach the caller; a DLQ serves asynchronous invocations.',
    });
  }

  /** Sets TABLE_NAME and grants the least IAM actions the access mode needs, on the table and its indexes. */
  public bindTable({ table, accessMode = 'RO' }: BindTableProps): void {
    this.addEnvironment('TABLE_NAME', table.tableName);
    this.addToRolePolicy(
      new PolicyStatement({
        actions: [...(accessMode === 'RW' ? TABLE_WRITE_ACTIONS : TABLE_READ_ACTIONS)],
        resources: tableResourceArns(table),
      }),
    );
  }
}
