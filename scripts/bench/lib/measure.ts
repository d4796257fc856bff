import autocannon from 'autocannon'
import { type BenchCase } from '../types'

const positions = new Map<string, number>()

export type Measurement = {
	connections: number
	p50: number
	p99: number
	rps: number
	errors: number
}

/**
 * Sends the case's requests (in turn) for `duration` seconds over `connections`
 * keep-alive connections, after a short warm-up, and returns latency percentiles in ms.
 * Any answer other than 2xx counts as an error: a fast 500 must not look like a fast page.
 */
/** A request as a browser on the portal's page sends it: a post carries the page's origin (the portal refuses one from another). */
export function asBrowserSends<R extends BenchCase['requests'][number]>(request: R, portalUrl: string): R {
	return request.method === 'POST' ? { ...request, headers: { Origin: new URL(portalUrl).origin, ...request.headers } } : request
}

export async function measure(baseUrl: string, benchCase: BenchCase, options: { connections: number; duration: number; warmup: number }): Promise<Measurement> {
	// One counter for all connections: each request takes the case's next request, so concurrent
	// connections do not send the same request at the same moment (and hit the same cached answer).
	// The counter carries on across runs of the same case, so the next concurrency level starts with requests not sent yet.
	let next = positions.get(benchCase.name) ?? 0
	const run = (duration: number) =>
		autocannon({
			url: baseUrl,
			connections: options.connections,
			duration,
			requests: [
				{
					path: benchCase.requests[0]!.path,
					setupRequest: (request) => {
						const r = benchCase.requests[next++ % benchCase.requests.length]!
						positions.set(benchCase.name, next)
						const sent = asBrowserSends(r, baseUrl)
						return { ...request, method: sent.method ?? 'GET', path: sent.path, body: sent.body, headers: { ...request.headers, ...sent.headers } }
					},
				},
			],
		})
	if (options.warmup > 0) await run(options.warmup)
	const result = await run(options.duration)
	return {
		connections: options.connections,
		p50: result.latency.p50,
		p99: result.latency.p99,
		rps: result.requests.average,
		errors: result.errors + result.timeouts + result.non2xx,
	}
}
