import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { singleton } from './singleton.server'

/**
 * What every log line of one request carries, without passing it down: the request id, kept in an
 * AsyncLocalStorage for the request's whole asynchronous life (server/app.ts opens it; the logger's
 * mixin reads it). One store per process, shared by the server's bundle and the app's build.
 */
export type RequestContext = {
	requestId: string
	/** The deepest route whose loader or action ran (the metrics' and traces' route label). */
	route?: string
	routeDepth?: number
}

const storage = singleton('request-context', () => new AsyncLocalStorage<RequestContext>())

/** A proxy's id (nginx's $request_id is 32 hex): letters, digits, `.`, `_`, `-`, 1 to 128 of them. */
const WELL_FORMED = /^[A-Za-z0-9._-]{1,128}$/

/** The X-Request-Id header when it is well-formed, else a new id (a malformed one is never echoed or logged). */
export function requestIdFrom(header: string | undefined): string {
	return header !== undefined && WELL_FORMED.test(header) ? header : randomUUID()
}

export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
	return storage.run(context, work)
}

/** The current request's context, or undefined outside a request (start, background jobs). */
export function currentRequestContext(): RequestContext | undefined {
	return storage.getStore()
}
