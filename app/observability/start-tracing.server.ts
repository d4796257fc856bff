/**
 * Imported first by server/index.ts and scripts/worker.ts, so that tracing (when configured) is
 * on before anything loads pg. A configuration that does not parse starts no tracing here: the
 * process then refuses to start with the reason, as it would without this.
 */
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { startTracing } from './tracing.server'

let env: ReturnType<typeof getEnv> | undefined
try {
	env = getEnv()
} catch {
	env = undefined
}
if (env?.OTEL_EXPORTER_OTLP_ENDPOINT || env?.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
	await startTracing({
		endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
		tracesEndpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
		serviceName: env.OTEL_SERVICE_NAME,
	}).catch((error: unknown) => {
		// Traces are an aid: an SDK that cannot start must not keep the portal down.
		logger.error('tracing could not start', { err: error })
	})
}
