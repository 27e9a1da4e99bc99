import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Architecture, Code, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildConsoleAssets, writeAssets } from '../console/server/build-assets.js';
import type { ApiInvokeRole } from './api-invoke-role.js';
import { apiFunction } from './lambda-defaults.js';
import { projectPath } from './project-root.js';

/** The gateway routes of the web console and the API reference (outside /v1, not in the OpenAPI paths). */
export const CONSOLE_ROUTE_PATHS = ['/console', '/console/{proxy+}', '/docs', '/docs/{proxy+}'] as const;

/** Where the layer puts the files in the function's file system (layers unpack under /opt). */
const ASSETS_DIR = 'console-assets';

export interface ConsoleSiteProps {
  httpApi: IHttpApi;
  /** What the API invokes its functions through. */
  invoker: ApiInvokeRole;
  /** The role for functions that touch no data (the console reads only its layer). */
  role: IRole;
  /** The log group the HTTP functions share. */
  logGroup: ILogGroup;
  /** The variables every function of the stack gets. */
  environment: Record<string, string>;
}

/**
 * The web console (/console) and the API reference (/docs) on the API's own gateway: one small
 * Lambda serves the files, which are bundled at synth time into a layer (esbuild, in-process,
 * like the functions' bundling; no Docker and no network).
 */
export class ConsoleSite extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);

    const assets = new LayerVersion(this, 'Assets', {
      description: 'Web console and API reference files (bundled at synth time)',
      compatibleArchitectures: [Architecture.ARM_64],
      code: Code.fromAsset(projectPath('console'), {
        // The output depends on more than console/ (the OpenAPI document, swagger-ui-dist): hash what was built.
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Only used if local bundling declined, which it never does.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
          local: {
            tryBundle(outputDir: string) {
              writeAssets(`${outputDir}/${ASSETS_DIR}`, buildConsoleAssets());
              return true;
            },
          },
        },
      }),
    });

    this.fn = apiFunction(this, 'Fn-console', 'console/server/lambda.ts', props.environment, {
      description: 'GET /console, /docs: web console and API reference',
      role: props.role,
      logGroup: props.logGroup,
    });
    this.fn.addLayers(assets);
    this.fn.addEnvironment('CONSOLE_ASSETS_DIR', `/opt/${ASSETS_DIR}`);

    const integration = props.invoker.integrationFor('Integration', this.fn);
    for (const path of CONSOLE_ROUTE_PATHS) {
      new HttpRoute(this, `Route-${path}`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(path, HttpMethod.GET),
        integration,
      });
    }
  }
}
