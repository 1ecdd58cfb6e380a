import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { routes as routeTable, type Route } from '#shared/routes.ts';
import { LoyaltyHttpApi } from './constructs/http-api.ts';
import { RouteFunctions } from './constructs/route-functions.ts';
import { LoyaltyTable } from './constructs/table.ts';
import { OrderAheadWorkflow } from './constructs/order-ahead-workflow.ts';

export interface LoyaltyApiStackProps extends StackProps {
  /** @default the route table of shared/routes.ts */
  routes?: readonly Route[];
}

/**
 * The whole API: the table, one function per route (plus the `$default` fallback), the HTTP API, and
 * the order-ahead validation workflow that the routes marked `startsValidation` start.
 */
export class LoyaltyApiStack extends Stack {
  public readonly table: Table;
  /** Handler name (module under functions/) -> its function, fallback included. */
  public readonly functions: ReadonlyMap<string, NodejsFunction>;
  public readonly api: HttpApi;
  public readonly orderAheadWorkflow: OrderAheadWorkflow;
  /** Invoke URL of the API's `$default` stage. */
  public readonly apiUrl: string;

  public constructor(scope: Construct, id: string, props: LoyaltyApiStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? routeTable;

    this.table = new LoyaltyTable(this, 'Data').table;
    const routeFunctions = new RouteFunctions(this, 'Functions', { routes, table: this.table });
    this.functions = routeFunctions.functions;
    const httpApi = new LoyaltyHttpApi(this, 'Api', {
      routes,
      functions: routeFunctions.functions,
      fallback: routeFunctions.fallback,
    });
    this.api = httpApi.api;
    this.apiUrl = httpApi.url;

    // Order-ahead validation: the routes marked startsValidation start its executions.
    this.orderAheadWorkflow = new OrderAheadWorkflow(this, 'OrderAheadWorkflow', {
      table: this.table,
      startingFunctions: routes.filter((route) => route.startsValidation).map((route) => routeFunctions.functions.get(route.handler)!),
    });

    new CfnOutput(this, 'ApiUrl', { value: httpApi.url, description: 'Invoke URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The DynamoDB table' });
  }
}
