/**
 * Express's request as the Fetch Request Remix reads, and a Fetch Response sent through Express:
 * what `@remix-run/express` does inside its handler, written against `@remix-run/node`'s public
 * stream helpers, because server/app.ts sets the caching headers between Remix's answer and its
 * sending (server/http-cache.ts) and the adapter's package exports only the whole handler.
 */
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from '@remix-run/node'
import { type Request, type Response } from 'express'

/** The request as the client sent it; its loaders and actions are aborted if the client goes away first. */
export function fetchRequestOf(req: Request, res: Response): globalThis.Request {
	// req.hostname respects `trust proxy`; the port comes from X-Forwarded-Host or Host.
	const port = [req.get('x-forwarded-host'), req.get('host')].map((host) => Number.parseInt(host?.split(':')[1] ?? '', 10)).find(Number.isSafeInteger)
	const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
	const headers = new Headers()
	for (const [name, values] of Object.entries(req.headers)) {
		if (values === undefined) continue
		for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value)
	}
	const controller = new AbortController()
	// 'close' without 'finish': the answer can no longer be sent.
	res.on('close', () => {
		if (!res.writableFinished) controller.abort()
	})
	const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		init.body = createReadableStreamFromReadable(req)
		init.duplex = 'half'
	}
	return new globalThis.Request(url, init)
}

/** Sends the answer: its status, every header (a repeated Set-Cookie too) and its body, streamed. */
export async function sendFetchResponse(res: Response, answer: globalThis.Response) {
	res.statusMessage = answer.statusText
	res.status(answer.status)
	for (const [name, value] of answer.headers.entries()) res.append(name, value)
	if (answer.body) await writeReadableStreamToWritable(answer.body, res)
	else res.end()
}
