import client from 'prom-client'

/**
 * The portal's own Prometheus metrics, in prom-client's default registry (one per process: the
 * server's bundle and the app's build share it, so each metric is made once, whoever asks first).
 * Counting is cheap and always on; only METRICS_PORT serves them (metrics-server.server.ts).
 * Names and what to alert on: docs/operations.md.
 */
const registry = client.register

function once<T extends client.Metric>(name: string, make: () => T): T {
	return (registry.getSingleMetric(name) as T | undefined) ?? make()
}

/** Seconds from a request's arrival to its answer's last byte, by route pattern (never the raw path) and status. */
export const httpRequestDuration = once(
	'autohub_http_request_duration_seconds',
	() =>
		new client.Histogram({
			name: 'autohub_http_request_duration_seconds',
			help: 'Time to answer an HTTP request, by method, route pattern (React Router route id) and status',
			labelNames: ['method', 'route', 'status'] as const,
			buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
		}),
)

/** Lookups of the in-memory caches (app/caching), by cache and hit or miss. */
export const cacheLookups = once(
	'autohub_cache_lookups_total',
	() =>
		new client.Counter({
			name: 'autohub_cache_lookups_total',
			help: 'Lookups of the in-memory caches, by cache name and result (hit or miss)',
			labelNames: ['cache', 'result'] as const,
		}),
)

/** Runs of the background jobs in this process (pg-boss workers or the embedded timers), by job and outcome. */
export const jobRuns = once(
	'autohub_job_runs_total',
	() =>
		new client.Counter({
			name: 'autohub_job_runs_total',
			help: 'Background job runs in this process, by job and outcome (ok or failed)',
			labelNames: ['job', 'outcome'] as const,
		}),
)

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** One answered request; an unknown method counts as `other` (the labels stay a short list). */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
	httpRequestDuration.observe({ method: METHODS.has(method) ? method : 'other', route, status: String(status) }, seconds)
}

let defaultsOn = false
/**
 * Node's own metrics (event-loop delay, heap, CPU, handles), only in a process whose metrics are
 * served. `clusterWorker`: a web process of several, which answers its primary's scrape
 * (prom-client listens on the cluster channel once an AggregatorRegistry is made).
 */
export function collectProcessMetrics(options: { clusterWorker?: boolean } = {}) {
	if (defaultsOn) return
	defaultsOn = true
	client.collectDefaultMetrics({ eventLoopMonitoringPrecision: 20 })
	if (options.clusterWorker) new client.AggregatorRegistry()
}
