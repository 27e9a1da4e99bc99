import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { stackSettings } from '../../infra/settings.js';
import { SocialNetworkStack } from '../../infra/stack.js';
import type { TemplateLoad } from '../../infra/template-budget.js';
import type { Resource } from '../support/construct-template.js';

export type { Resource } from '../support/construct-template.js';

/** One synthesised template: the stack's own or a nested stack's. */
export interface StackTemplate {
  stack: Stack;
  template: Template;
  resources: Record<string, Resource>;
  parameters: Record<string, unknown>;
}

/** A resource of one of the templates: logical ids repeat across templates, so the template goes with it. */
export interface Located {
  at: StackTemplate;
  id: string;
}

export const sameResource = (a: Located, b: Located) => a.at === b.at && a.id === b.id;
/** A key for sets and maps of located resources. */
export const keyOf = (located: Located) => `${located.at.stack.node.path}#${located.id}`;

/**
 * The service's stack as `cdk synth` builds it from this context (esbuild bundling skipped), with
 * its template and the template of every nested stack, and the means to follow a reference across
 * them: a nested template names what its parent passes it by a parameter.
 */
export class ServiceTemplates {
  readonly stack: SocialNetworkStack;
  readonly root: StackTemplate;
  /** The root's template first, then every nested stack's, in construct order. */
  readonly all: StackTemplate[];
  private readonly byStack = new Map<Stack, StackTemplate>();

  constructor(context: Record<string, unknown> = {}) {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
    this.stack = new SocialNetworkStack(app, 'SocialNetworkApi', stackSettings(app));
    const stacks = this.stack.node.findAll().filter((c): c is Stack => Stack.isStack(c));
    this.all = stacks.map((stack) => {
      const template = Template.fromStack(stack);
      const json = template.toJSON() as { Resources: Record<string, Resource>; Parameters?: Record<string, unknown> };
      const entry = { stack, template, resources: json.Resources, parameters: json.Parameters ?? {} };
      this.byStack.set(stack, entry);
      return entry;
    });
    this.root = this.all[0]!;
  }

  /** The template a construct's resources are in. */
  of(construct: IConstruct): StackTemplate {
    return this.byStack.get(Stack.of(construct))!;
  }

  /** Where a construct's (default) resource is: its template and its logical id there. */
  locate(construct: IConstruct): Located {
    const element = (construct.node.defaultChild ?? construct) as CfnElement;
    const stack = Stack.of(element);
    return { at: this.byStack.get(stack)!, id: stack.getLogicalId(element) };
  }

  resource(located: Located): Resource | undefined {
    return located.at.resources[located.id];
  }

  /** Every resource of this type in every template. */
  ofType(type: string): Located[] {
    return this.all.flatMap((at) =>
      Object.entries(at.resources)
        .filter(([, r]) => r.Type === type)
        .map(([id]) => ({ at, id })),
    );
  }

  /**
   * A property value as the template that defines it says it: a parameter of a nested template is
   * replaced by what the parent passes it (again, up to the template the value comes from).
   */
  resolve(at: StackTemplate, value: unknown): { at: StackTemplate; value: unknown } {
    const ref = (value as { Ref?: unknown } | null)?.Ref;
    const resource = at.stack.nestedStackResource;
    if (typeof ref !== 'string' || !(ref in at.parameters) || !resource) return { at, value };
    const parent = this.byStack.get(Stack.of(resource))!;
    const passed = parent.resources[parent.stack.getLogicalId(resource)]!.Properties.Parameters[ref];
    return this.resolve(parent, passed);
  }

  /** The resource a `Ref` or `Fn::GetAtt` points to, followed through parameters. */
  target(at: StackTemplate, value: unknown): Located {
    const resolved = this.resolve(at, value);
    const node = resolved.value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
    const id = node.Ref ?? node['Fn::GetAtt']?.[0];
    if (!id || !resolved.at.resources[id]) throw new Error(`not a reference to a resource: ${JSON.stringify(value)}`);
    return { at: resolved.at, id };
  }

  /** Each template's resources and the route-table routes in it (infra/template-budget.ts). */
  loads(): TemplateLoad[] {
    const routes = [...this.stack.httpApi.routeFunctions.values()].map((fn) => Stack.of(fn));
    return this.all.map(({ stack, resources }) => ({
      path: stack.node.path,
      resources: Object.keys(resources).length,
      routes: routes.filter((s) => s === stack).length,
    }));
  }
}
