import { createServer, type Server } from 'node:http'
import client from 'prom-client'
import { logger } from '~/utils/logger.server'
import { collectProcessMetrics } from './metrics.server'

/**
 * Serves Prometheus's text format on METRICS_PORT, apart from the portal's port (never behind the
 * public proxy). `cluster`: this is the primary of several web processes; one scrape asks each of
 * them (prom-client's AggregatorRegistry over node:cluster's channel) and answers their sum.
 * Any path answers: Prometheus asks /metrics.
 */
export function serveMetrics(port: number, options: { host?: string; cluster?: boolean } = {}): Server {
	const aggregator = options.cluster ? new client.AggregatorRegistry() : undefined
	if (!aggregator) collectProcessMetrics()
	const server = createServer((req, res) => {
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			res.writeHead(405, { Allow: 'GET, HEAD' }).end()
			return
		}
		const metrics = aggregator ? aggregator.clusterMetrics() : client.register.metrics()
		metrics.then(
			(text) => res.writeHead(200, { 'Content-Type': client.register.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
			(error: unknown) => {
				logger.error('metrics could not be collected', { err: error })
				res.writeHead(503, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n')
			},
		)
	})
	server.on('error', (error) => logger.error('the metrics server failed', { port, err: error }))
	server.listen(port, options.host ?? '0.0.0.0', () => logger.info('metrics served', { url: `http://localhost:${port}/metrics`, cluster: Boolean(aggregator) }))
	// The process stops when its real work is over, whatever Prometheus is doing.
	server.unref()
	return server
}
