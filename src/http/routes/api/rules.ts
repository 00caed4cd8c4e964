import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { RULE_VERSION_MAX, RULE_VERSIONS_PAGE_SIZE } from '../../../domain/matching/rules.ts';
import type { Services } from '../../../domain/services.ts';
import { typedRoutes } from '../../type-provider.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readInteger, readPageSize } from '../../schemas/common.ts';
import {
  ReorderRulesBody,
  RuleBodySchema,
  RuleParams,
  RulePatchSchema,
  RuleSchema,
  RuleValidationSchema,
  RuleVersionsQuery,
  RuleVersionsSchema,
  RuleWriteSchema,
  ValidateRuleQuery,
} from '../../schemas/rules.ts';

/** Matching rules (SPEC §8.1): read, create, change (each change a new version), delete, reorder, validate. */
export async function ruleRoutes(parent: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const app = typedRoutes(parent);

  app.get(
    '/rules',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listRules',
        summary: 'List rules',
        description: 'Every rule of the organization that is not deleted, in the order they run: by priority, then creation, then id.',
        tags: ['Rules'],
        params: OrganizationParams,
        response: { 200: Type.Array(RuleSchema), ...errorResponses() },
      },
    },
    async (request) => services.rules.list(request.principal.organizationId),
  );

  app.post(
    '/rules',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createRule',
        summary: 'Create a rule',
        description:
          'Creates version 1 of a rule. Every problem of the body is reported at once (400, each at its JSON pointer): unknown members, paths that a dataset of the side ' +
          "does not have (with the valid ones), conditions that do not fit their field's type, patterns that are not linear-time or that PostgreSQL refuses, datasets " +
          'that are not the organization\'s. The answer carries "warnings" when rules of higher priority take everything this rule could match.',
        tags: ['Rules'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: RuleBodySchema,
        response: { 201: RuleWriteSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      // PostgreSQL compiles the patterns before the write's transaction (see Rules).
      const patternVerdicts = await services.rules.checkPatterns(body);
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) => services.rules.create(transaction, context, body, patternVerdicts));
    },
  );

  app.post(
    '/rules/reorder',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'reorderRules',
        summary: 'Reorder rules',
        description:
          'Gives the listed rules the priorities 10, 20, 30... in the order given; rules not listed keep theirs. A reorder makes no new version (a version records ' +
          'what a rule matches, which its rank does not change) and is recorded in the audit trail. Answers with every rule in the new order; an unknown id is a 404.',
        tags: ['Rules'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: ReorderRulesBody,
        response: { 200: Type.Array(RuleSchema), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { ruleIds } = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.rules.reorder(transaction, context, { ruleIds }));
    },
  );

  app.post(
    '/rules/validate',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'validateRule',
        summary: 'Check a rule draft',
        description:
          'Checks a draft without storing anything and answers 200 with every problem: errors (what POST /rules or PATCH would refuse) and warnings (rules of higher ' +
          'priority that always shadow it, or rules it shadows). A body that is not a JSON object is a 400. With ruleId, the draft is checked as a PATCH of that rule.',
        tags: ['Rules'],
        params: OrganizationParams,
        querystring: ValidateRuleQuery,
        body: RulePatchSchema,
        response: { 200: RuleValidationSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { ruleId } = request.query;
      return services.rules.validate(request.principal.organizationId, request.body, ruleId === undefined ? {} : { ruleId: ruleId.toLowerCase() });
    },
  );

  app.get(
    '/rules/:ruleId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getRule',
        summary: 'Get a rule',
        description: 'The rule at its current version. A deleted rule is a 404 (its versions stay readable).',
        tags: ['Rules'],
        params: RuleParams,
        response: { 200: RuleSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { ruleId } = request.params;
      return services.rules.get(request.principal.organizationId, ruleId.toLowerCase());
    },
  );

  app.patch(
    '/rules/:ruleId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateRule',
        summary: 'Change a rule',
        description:
          'A JSON merge patch (RFC 7396) of the rule, checked again as a whole; a change makes a new version (matches keep the version that made them), a patch that ' +
          'changes nothing makes none. "version" is an optional precondition: when the rule is at another version, nothing changes and the answer is 409.',
        tags: ['Rules'],
        params: RuleParams,
        headers: IdempotencyKeyHeaders,
        body: RulePatchSchema,
        response: { 200: RuleWriteSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { ruleId } = request.params;
      const body = request.body;
      const patternVerdicts = await services.rules.checkPatterns(body);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.rules.update(transaction, context, ruleId.toLowerCase(), body, patternVerdicts),
      );
    },
  );

  app.delete(
    '/rules/:ruleId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'deleteRule',
        summary: 'Delete a rule',
        description: 'The rule stops running and disappears from GET /rules; its versions are kept, because matches and evidence name them.',
        tags: ['Rules'],
        params: RuleParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { ruleId } = request.params;
      return sendIdempotentWrite(request, reply, services, 204, async (transaction, context) => {
        await services.rules.delete(transaction, context, ruleId.toLowerCase());
        return null;
      });
    },
  );

  app.get(
    '/rules/:ruleId/versions',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listRuleVersions',
        summary: 'List the versions of a rule',
        description: 'Every version of the rule with its body, newest first; also for a deleted rule, so that the rule behind a match can always be shown.',
        tags: ['Rules'],
        params: RuleParams,
        querystring: RuleVersionsQuery,
        response: { 200: RuleVersionsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { ruleId } = request.params;
      const query = request.query;
      return services.rules.versions(request.principal.organizationId, ruleId.toLowerCase(), {
        limit: readPageSize(query.limit, RULE_VERSIONS_PAGE_SIZE),
        beforeVersion: readInteger(query.beforeVersion, '/querystring/beforeVersion', { minimum: 1, maximum: RULE_VERSION_MAX }) ?? null,
      });
    },
  );
}
