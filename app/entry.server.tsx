import { Writable } from 'node:stream'
import { type AppLoadContext, type EntryContext, ServerRouter } from 'react-router'
import { renderToPipeableStream } from 'react-dom/server'
import { isLanguage } from '~/i18n/config'
import { getDictionaries, getLanguage } from '~/i18n/i18n.server'
import { TranslationProvider } from '~/i18n/translation'
import { withoutNulBytes } from '~/utils/html-stream.server'
import { UNAVAILABLE_RETRY_SECONDS } from '~/utils/http'
import { loggablePath, logger } from '~/utils/logger.server'
import { NonceProvider } from '~/utils/nonce-provider'

export { startup, checkHealth, shutdown, checkConfiguration } from '~/utils/startup.server'
export { errorResponse, failureResponse, startingResponse } from '~/utils/failures.server'
export { registerDatabaseMetrics } from '~/observability/database-metrics.server'

const ABORT_DELAY = 5_000
// React Router rejects a loader's pending promises after this long (the render is cut a second later).
export const streamTimeout = ABORT_DELAY

export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: AppLoadContext,
) {
	const nonce = loadContext.cspNonce ?? ''
	// The root loader has decided the language (URL, cookie, the user's preference); render in it.
	const rootData = routerContext.staticHandlerContext.loaderData?.root as { language?: unknown } | undefined
	const language = isLanguage(rootData?.language) ? rootData.language : await getLanguage(request)
	return new Promise<Response>((resolve, reject) => {
		// The whole page is rendered before it is sent (onAllReady), in one buffer: the pages have no
		// slow parts to stream (no defer, no Suspense of their own), and one write with a
		// Content-Length costs far less than a stream of small chunks through Node and web streams.
		let shellRendered = false
		// A render that hangs (a loader's promise never settling) is cut off after the delay.
		let abort = () => {}
		const timeout = setTimeout(() => abort(), ABORT_DELAY + 1_000)
		const chunks: Buffer[] = []
		const collector = new Writable({
			write(chunk: Buffer, _encoding, done) {
				chunks.push(chunk)
				done()
			},
			final(done) {
				clearTimeout(timeout)
				responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
				if (responseStatusCode === 503 && !responseHeaders.has('Retry-After')) responseHeaders.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS))
				// React's zero-byte padding dropped (decision 0093).
				const html = withoutNulBytes(Buffer.concat(chunks))
				responseHeaders.set('Content-Length', String(html.length))
				resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
				done()
			},
		})
		const rendering = renderToPipeableStream(
			<TranslationProvider language={language} dictionaries={getDictionaries(language)}>
				<NonceProvider value={nonce}>
					<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
				</NonceProvider>
			</TranslationProvider>,
			{
				nonce,
				onShellReady() {
					shellRendered = true
				},
				onAllReady() {
					// React calls this after a failed shell too: that answer is onShellError's.
					if (shellRendered) rendering.pipe(collector)
				},
				onShellError(error: unknown) {
					clearTimeout(timeout)
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					// Before the shell, React Router's error handling has it (onShellError rejects).
					if (shellRendered) logger.error('render error', { err: error })
				},
			},
		)
		abort = rendering.abort
	})
}

export function handleError(error: unknown, { request }: { request: Request }) {
	if (request.signal.aborted) return
	// A Response thrown on purpose (a 4xx, a 503 while the database is away) is an answer, not a bug.
	if (error instanceof Response) return
	logger.error('unhandled error', { method: request.method, path: loggablePath(new URL(request.url).pathname), err: error })
}
