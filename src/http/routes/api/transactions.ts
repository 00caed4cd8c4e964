import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../domain/services.ts';

export async function transactionRoutes(_app: FastifyInstance, _options: { services: Services }) {}
