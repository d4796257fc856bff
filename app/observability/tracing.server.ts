import { createRequire } from 'node:module'

/**
 * OpenTelemetry traces of requests (server spans, outgoing HTTP) and PostgreSQL queries, sent to
 * an OTLP/HTTP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set. Without it nothing of the SDK is
 * loaded: this module imports only Node's own, and the SDK is a dynamic import.
 *
 * The instrumentations patch `http` and `pg` as they are required: this runs before the app's
 * build loads pg (start-tracing.server.ts is the first import of server/index.ts and the worker),
 * and requires them itself afterwards, so that a module loaded earlier (an ESM import, which
 * require hooks never see) is patched all the same: the patches go on the shared prototypes.
 */
export type TracingOptions = {
	/** OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://collector:4318; traces go to its /v1/traces. */
	endpoint?: string
	/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the whole address of the traces, when it is not the endpoint's /v1/traces. */
	tracesEndpoint?: string
	serviceName: string
}

let stop: (() => Promise<void>) | undefined

/** Starts tracing once per process when an endpoint is set; resolves whether it did. */
export async function startTracing(options: TracingOptions): Promise<boolean> {
	if (stop) return true
	if (!options.endpoint && !options.tracesEndpoint) return false
	const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { registerInstrumentations }, { HttpInstrumentation }, { PgInstrumentation }, { resourceFromAttributes }] =
		await Promise.all([
			import('@opentelemetry/sdk-trace-node'),
			import('@opentelemetry/exporter-trace-otlp-http'),
			import('@opentelemetry/instrumentation'),
			import('@opentelemetry/instrumentation-http'),
			import('@opentelemetry/instrumentation-pg'),
			import('@opentelemetry/resources'),
		])
	const url = options.tracesEndpoint ?? `${options.endpoint!.replace(/\/+$/, '')}/v1/traces`
	const provider = new NodeTracerProvider({
		resource: resourceFromAttributes({ 'service.name': options.serviceName }),
		spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
	})
	// The global tracer provider, with the AsyncLocalStorage context manager: a query's span finds its request's.
	provider.register()
	registerInstrumentations({
		tracerProvider: provider,
		instrumentations: [
			new HttpInstrumentation({
				// Probes and scrapes every few seconds would drown the traces that matter.
				ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz)(\?|$)/.test(request.url ?? ''),
			}),
			// requireParentSpan: a query outside any request (a background job's) still gets a span of its own.
			new PgInstrumentation({ requireParentSpan: false, enhancedDatabaseReporting: false }),
		],
	})
	const require = createRequire(import.meta.url)
	for (const name of ['node:http', 'node:https', 'pg', 'pg-pool']) {
		try {
			require(name)
		} catch {
			// Not installed (pg-pool comes with pg): nothing to patch.
		}
	}
	stop = () => provider.shutdown()
	return true
}

/** Sends the spans still waiting in the batch (a stopping process). */
export async function stopTracing() {
	await stop?.().catch(() => {})
}
