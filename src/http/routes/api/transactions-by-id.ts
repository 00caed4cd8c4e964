import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../domain/services.ts';

export async function transactionByIdRoutes(_app: FastifyInstance, _options: { services: Services }) {}
