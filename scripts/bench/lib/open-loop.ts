import http from 'node:http'
import { type Kind, type Outcome, type Planned } from './peak-mix'

/** One request the driver sends; success is a 2xx, or for a form post a redirect to `redirectTo`. */
export type DrivenRequest = {
	path: string
	method?: 'GET' | 'POST'
	headers?: Record<string, string>
	body?: string
	redirectTo?: string
}

/** Whether an answer is the one the request wanted (a form post's redirect, else a 2xx). */
export function answered(request: Pick<DrivenRequest, 'redirectTo'>, status: number, location: string | undefined) {
	if (request.redirectTo !== undefined) return status >= 300 && status < 400 && location === request.redirectTo
	return status >= 200 && status < 300
}

export type DriveOptions = {
	/** The request to send for a planned one (who sends it, what it asks). */
	requestFor: (planned: Planned) => DrivenRequest
	/** Keep-alive connections at most, as many browsers' would be (requests beyond wait in the driver, and that wait counts). */
	maxSockets: number
	/** Requests started and not answered at most: past it the step is over, the rest counted as failed (the server is far behind). */
	maxInFlight: number
	/** How long after the last request was due answers are still waited for; the unanswered count as failed. */
	drainMs: number
}

/**
 * Sends a step's requests open loop: each at its own due time, whatever the answers before it
 * did (unlike autocannon, which sends the next request on a connection only after the last
 * answer, so a slow server is asked less). Each request's time runs from when it was due to its
 * answer's last byte, so time spent waiting in the driver or the server's queue counts. Bounded:
 * at most `maxInFlight` unanswered, and nothing waited for past the last due time + `drainMs`.
 */
export async function driveOpenLoop(baseUrl: string, plan: Planned[], options: DriveOptions): Promise<{ outcomes: Outcome[]; lateMs: number[] }> {
	const url = new URL(baseUrl)
	const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets })
	const outcomes: Outcome[] = []
	const late: number[] = []
	const open = new Set<http.ClientRequest>()
	const last = plan.length ? plan[plan.length - 1]!.at : 0
	let inFlight = 0
	let next = 0
	let gaveUp = false

	const started = performance.now()
	const failAll = (from: number) => {
		for (let i = from; i < plan.length; i++) outcomes.push({ kind: plan[i]!.kind, ms: NaN, ok: false })
	}
	await new Promise<void>((resolve) => {
		let finished = false
		const finish = () => {
			if (finished || next < plan.length || inFlight > 0) return
			finished = true
			clearTimeout(deadline)
			resolve()
		}
		const deadline = setTimeout(
			() => {
				// Past the drain: what is still open failed; stop sending anything not sent yet.
				gaveUp = true
				failAll(next)
				next = plan.length
				for (const request of open) request.destroy(new Error('not answered in time'))
			},
			last + options.drainMs,
		)
		const send = (planned: Planned) => {
			const due = started + planned.at
			const spec = options.requestFor(planned)
			let done = false
			const record = (success: boolean) => {
				if (done) return
				done = true
				outcomes.push({ kind: planned.kind as Kind, ms: performance.now() - due, ok: success })
				inFlight--
				open.delete(request)
				finish()
			}
			inFlight++
			late.push(performance.now() - due)
			const request = http.request(
				{ agent, host: url.hostname, port: url.port, method: spec.method ?? 'GET', path: spec.path, headers: spec.headers },
				(response) => {
					response.on('data', () => {})
					response.on('end', () => record(answered(spec, response.statusCode ?? 0, response.headers.location)))
					response.on('error', () => record(false))
				},
			)
			request.on('error', () => record(false))
			open.add(request)
			request.end(spec.body)
		}
		const pump = () => {
			if (gaveUp) return finish()
			const now = performance.now() - started
			while (next < plan.length && plan[next]!.at <= now) {
				if (inFlight >= options.maxInFlight) {
					// Far behind: what is left is counted as failed rather than piled on.
					failAll(next)
					next = plan.length
					break
				}
				send(plan[next++]!)
			}
			if (next < plan.length) setTimeout(pump, Math.max(0, plan[next]!.at - (performance.now() - started)))
			else finish()
		}
		pump()
	})
	agent.destroy()
	return { outcomes, lateMs: late }
}
