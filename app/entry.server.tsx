import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { isLanguage } from '~/i18n/config'
import { getI18nInstance, getLanguage } from '~/i18n/i18n.server'
import { UNAVAILABLE_RETRY_SECONDS } from '~/utils/http'
import { loggablePath, logger } from '~/utils/logger.server'
import { NonceProvider } from '~/utils/nonce-provider'

export { startup, checkHealth, shutdown, checkConfiguration } from '~/utils/startup.server'
export { errorResponse, failureResponse } from '~/utils/failures.server'
export { pageCache, pageKey } from '~/utils/page-cache.server'

const ABORT_DELAY = 5_000

export default async function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	remixContext: EntryContext,
	loadContext: AppLoadContext,
) {
	const nonce = loadContext.cspNonce ?? ''
	// The root loader has decided the language (URL, cookie, the user's preference); render in it.
	const rootData = remixContext.staticHandlerContext.loaderData?.root as { language?: unknown } | undefined
	const language = isLanguage(rootData?.language) ? rootData.language : await getLanguage(request)
	const i18n = getI18nInstance(language)
	const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady'

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		const { pipe, abort } = renderToPipeableStream(
			<I18nextProvider i18n={i18n}>
				<NonceProvider value={nonce}>
					<RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={ABORT_DELAY} />
				</NonceProvider>
			</I18nextProvider>,
			{
				nonce,
				[readyEvent]() {
					shellRendered = true
					const body = new PassThrough()
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					// The database is out of reach (app/utils/failures.server.ts): tell clients when to come back.
					if (responseStatusCode === 503 && !responseHeaders.has('Retry-After')) responseHeaders.set('Retry-After', String(UNAVAILABLE_RETRY_SECONDS))
					resolve(
						new Response(createReadableStreamFromReadable(body), {
							headers: responseHeaders,
							status: responseStatusCode,
						}),
					)
					pipe(body)
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					// Errors after the shell are reported by the error boundary; log the rest.
					if (shellRendered) logger.error('render error', { err: error })
				},
			},
		)
		setTimeout(abort, ABORT_DELAY + 1_000)
	})
}

export function handleError(error: unknown, { request }: { request: Request }) {
	if (request.signal.aborted) return
	// A Response thrown on purpose (a 4xx, a 503 while the database is away) is an answer, not a bug.
	if (error instanceof Response) return
	logger.error('unhandled error', { method: request.method, path: loggablePath(new URL(request.url).pathname), err: error })
}
