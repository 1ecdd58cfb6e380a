import { CfnOutput, Stack, type NestedStack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { FALLBACK_HANDLER, routes as routeTable, type Route } from '#shared/routes.ts';
import { LoyaltyHttpApi } from './constructs/http-api.ts';
import { RouteFunctions } from './constructs/route-functions.ts';
import { LoyaltyTable } from './constructs/table.ts';
import { OrderAheadWorkflow, VALIDATION_TASK_HANDLER } from './constructs/order-ahead-workflow.ts';
import { COMPLETION_TASK_HANDLER, OrderAheadCompletionWorkflow } from './constructs/order-ahead-completion-workflow.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { WebhookDelivery } from './constructs/webhook-delivery.ts';
import { EdgeDistribution } from './constructs/edge-distribution.ts';
import { ConsoleSite } from './constructs/console-site.ts';
import type { ClientLimitsReference } from './constructs/client-limits.ts';
import { AddressGeocoder } from './constructs/geocoder.ts';
import { Mail, addressOf } from './constructs/mail.ts';
import { ImageStore } from './constructs/images.ts';
import { IMAGE_PROCESSING_HANDLER, ImageProcessing } from './constructs/image-processing.ts';
import { PushNotifications } from './constructs/push-notifications.ts';

/** Sender of the API's email unless the `mailFrom` context (or prop) says otherwise; deployers set their own. */
export const DEFAULT_MAIL_FROM = 'Loyalty API <no-reply@loyalty.example.com>';

export interface LoyaltyApiStackProps extends StackProps {
  /** @default the route table of shared/routes.ts */
  routes?: readonly Route[];
  /** How many nested stacks share the routes. @default ROUTE_STACK_COUNT */
  routeStackCount?: number;
  /**
   * The per-client limits' web ACL (infra/edge-stack.ts): with it, a CloudFront distribution carrying
   * it becomes the API's public URL. Without it (tools that synthesize parts of the stack), clients
   * call the stage directly and only the stage's shared throttle applies.
   */
  clientLimits?: ClientLimitsReference;
  /** @default the `mailFrom` context, else DEFAULT_MAIL_FROM */
  mailFrom?: string;
  /** SES identity (domain or address). @default the `mailIdentity` context, else the domain of mailFrom */
  mailIdentity?: string;
  /**
   * SNS platform applications for push notifications (docs/operations.md, "Push notifications").
   * @default the `pushApnsPlatformApplicationArn` / `pushApnsSandboxPlatformApplicationArn` contexts, else none (no pushes)
   */
  push?: { apnsPlatformApplicationArn?: string; apnsSandboxPlatformApplicationArn?: string };
}

/**
 * The whole API: the table, one function per route (plus the `$default` fallback), the HTTP API, and
 * the two order-ahead workflows: validation (started by the routes marked `startsValidation`) and
 * completion (started by the routes marked `startsCompletion`).
 */
export class LoyaltyApiStack extends Stack {
  public readonly table: Table;
  /** Handler name (module under functions/) -> its function, fallback included. */
  public readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** The nested stacks holding the routes (infra/constructs/route-functions.ts). */
  public readonly routeStacks: readonly NestedStack[];
  public readonly api: HttpApi;
  public readonly orderAheadWorkflow: OrderAheadWorkflow;
  public readonly orderAheadCompletionWorkflow: OrderAheadCompletionWorkflow;
  public readonly mail: Mail;
  public readonly images: ImageStore;
  public readonly imageProcessing: ImageProcessing;
  public readonly monitoring: Monitoring;
  public readonly webhookDelivery: WebhookDelivery;
  public readonly edge?: EdgeDistribution;
  /** The merchant console's bucket and /console/* behaviour, with the edge. */
  public readonly console?: ConsoleSite;
  /** The URL clients call: the CloudFront distribution's with client limits, else the `$default` stage's. */
  public readonly apiUrl: string;

  public constructor(scope: Construct, id: string, props: LoyaltyApiStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? routeTable;

    this.table = new LoyaltyTable(this, 'Data').table;
    const httpApi = new LoyaltyHttpApi(this, 'Api');
    this.api = httpApi.api;
    // Each route's function, role, log group, integration, route and permission, in nested stacks.
    const routeFunctions = new RouteFunctions(this, 'Functions', { routes, table: this.table, api: this.api, stackCount: props.routeStackCount });
    this.routeStacks = [...routeFunctions.stacks.values()];
    this.functions = new Map([...routeFunctions.functions, [FALLBACK_HANDLER, httpApi.fallback]]);

    // Order-ahead validation: the routes marked startsValidation start its executions.
    this.orderAheadWorkflow = new OrderAheadWorkflow(this, 'OrderAheadWorkflow', {
      table: this.table,
      startingFunctions: routes.filter((route) => route.startsValidation).map((route) => routeFunctions.functions.get(route.handler)!),
    });
    // Order-ahead completion: the routes marked startsCompletion start its executions.
    this.orderAheadCompletionWorkflow = new OrderAheadCompletionWorkflow(this, 'OrderAheadCompletionWorkflow', {
      table: this.table,
      startingFunctions: routes.filter((route) => route.startsCompletion).map((route) => routeFunctions.functions.get(route.handler)!),
    });

    // Geocoding: the routes marked geocodes call Amazon Location Service (Geocode only, on the Places provider).
    new AddressGeocoder(this, 'AddressGeocoder', {
      functions: routes.filter((route) => route.geocodes).map((route) => routeFunctions.functions.get(route.handler)!),
    });

    // Events to webhooks: the table's stream, the FIFO delivery queue and its functions (docs/events.md).
    this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
      table: this.table,
      queueingFunctions: routes.filter((route) => route.queuesDeliveries).map((route) => routeFunctions.functions.get(route.handler)!),
    });

    // Push notifications (order ahead ready or rejected, rewards, gifts): the stream function, through SNS mobile push.
    new PushNotifications(this, 'PushNotifications', {
      table: this.table,
      sender: this.webhookDelivery.streamFunction,
      apnsPlatformApplicationArn: props.push?.apnsPlatformApplicationArn ?? (this.node.tryGetContext('pushApnsPlatformApplicationArn') as string | undefined),
      apnsSandboxPlatformApplicationArn:
        props.push?.apnsSandboxPlatformApplicationArn ?? (this.node.tryGetContext('pushApnsSandboxPlatformApplicationArn') as string | undefined),
    });

    // Email (password resets, permissions-request notices, the mail outbox): SES, send-only, for the functions that send.
    const mailFrom: string = props.mailFrom ?? (this.node.tryGetContext('mailFrom') as string | undefined) ?? DEFAULT_MAIL_FROM;
    const mailIdentity: string = props.mailIdentity ?? (this.node.tryGetContext('mailIdentity') as string | undefined) ?? addressOf(mailFrom).split('@')[1]!;
    this.mail = new Mail(this, 'Mail', {
      from: mailFrom,
      identity: mailIdentity,
      support: this.node.tryGetContext('supportEmail') as string | undefined,
      // The stream function sends the mail outbox (gift card orders' emails, after the answer).
      senders: [
        ...routes.filter((route) => route.sendsEmail).map((route) => routeFunctions.functions.get(route.handler)!),
        this.webhookDelivery.streamFunction,
      ],
    });

    // Images: a private bucket; the routes marked readsImages may GetObject its image keys (to sign redirects).
    this.images = new ImageStore(this, 'Images', {
      readers: routes.filter((route) => route.readsImages).map((route) => routeFunctions.functions.get(route.handler)!),
      uploadSigners: routes.filter((route) => route.signsUploads).map((route) => routeFunctions.functions.get(route.handler)!),
    });
    // Uploaded pictures: the bucket's ObjectCreated events under uploads/ -> resized variants (sharp, arm64).
    this.imageProcessing = new ImageProcessing(this, 'ImageProcessing', { bucket: this.images.bucket, table: this.table });

    if (props.clientLimits) {
      this.edge = new EdgeDistribution(this, 'Edge', { api: this.api, webAclArn: props.clientLimits.webAclArn });
      // The merchant console on the same origin (docs/console.md): /console/* from its bucket.
      this.console = new ConsoleSite(this, 'Console', {
        distribution: this.edge.distribution,
        apiKey: this.node.tryGetContext('consoleApiKey') as string | undefined,
        imagesOrigin: this.images.origin,
      });
      // The console posts a location's picture straight to the images bucket (a presigned POST): its origin may.
      this.images.allowConsoleUploads(this.edge.url);
      // Links and *_url fields must send clients back through the limits, never to the stage itself.
      for (const fn of [...this.functions.values(), this.orderAheadWorkflow.validationFunction, this.orderAheadCompletionWorkflow.completionFunction])
        fn.addEnvironment('PUBLIC_BASE_URL', this.edge.url);
      // HTTP functions key per-client caps on the viewer address only when a request carries this (shared/http/client-address.ts).
      for (const fn of this.functions.values()) fn.addEnvironment('EDGE_ORIGIN_SECRET', this.edge.originSecret);
      new CfnOutput(this, 'OriginUrl', {
        value: httpApi.url,
        description: 'The API stage behind CloudFront (bypasses the per-client limits; not for clients)',
      });
    }
    this.apiUrl = this.edge?.url ?? httpApi.url;

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      table: this.table,
      stateMachine: this.orderAheadWorkflow.stateMachine,
      completionStateMachine: this.orderAheadCompletionWorkflow.stateMachine,
      functions: new Map([
        ...this.functions,
        [VALIDATION_TASK_HANDLER, this.orderAheadWorkflow.validationFunction],
        [COMPLETION_TASK_HANDLER, this.orderAheadCompletionWorkflow.completionFunction],
        [IMAGE_PROCESSING_HANDLER, this.imageProcessing.function],
      ]),
      webAcl: props.clientLimits,
    });

    this.webhookDelivery.alarmTo(this.monitoring.topic, this.monitoring.dashboard);
    this.imageProcessing.alarmTo(this.monitoring.topic);

    new CfnOutput(this, 'ApiUrl', { value: this.apiUrl, description: 'Invoke URL of the API' });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Subscribe on-call to this SNS topic: every alarm notifies it',
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName, description: 'The CloudWatch dashboard' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The DynamoDB table' });
  }
}
