import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { renderToString } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { getDictionaries } from '~/i18n/i18n.server'
import { TranslationProvider } from '~/i18n/translation'
import { type Language } from '~/i18n/config'

async function render(error: unknown, language: Language) {
	const routes = [{ path: '/', element: <GeneralErrorBoundary error={error} /> }]
	const handler = createStaticHandler(routes)
	const context = await handler.query(new Request('http://localhost/'))
	if (context instanceof Response) throw context
	const router = createStaticRouter(handler.dataRoutes, context)
	return renderToString(
		<TranslationProvider language={language} dictionaries={getDictionaries(language)}>
			<StaticRouterProvider router={router} context={context} hydrate={false} />
		</TranslationProvider>,
	)
}

describe('the error boundary', () => {
	test('shows "Unexpected Application Error!" with the error text (spec §8)', async () => {
		const html = await render(new Error('database went away'), 'en')
		expect(html).toContain('Unexpected Application Error!')
		expect(html).toContain('database went away')
	})

	test('speaks the reader’s language', async () => {
		expect(await render(new Error('x'), 'et')).toContain('Ootamatu rakenduse viga!')
		expect(await render(new Error('x'), 'ru')).toContain('Непредвиденная ошибка приложения!')
	})

	test('shows a not-found page for a 404, in the reader’s language', async () => {
		// The shape isRouteErrorResponse recognises: what a thrown 404 Response becomes.
		const notFound = { status: 404, statusText: 'Not Found', internal: false, data: null }
		expect(await render(notFound, 'en')).toContain('Page not found')
		expect(await render(notFound, 'et')).toContain('Lehte ei leitud')
	})

	test('shows the app’s translated refusal, and never the framework’s developer message', async () => {
		const refused = { status: 409, statusText: 'Conflict', internal: false, data: 'Someone changed this at the same moment.' }
		expect(await render(refused, 'en')).toContain('Someone changed this at the same moment.')
		const noAction = { status: 405, statusText: 'Method Not Allowed', internal: true, data: 'You made a POST request to "/about" but did not provide an `action`' }
		const html = await render(noAction, 'en')
		expect(html).toContain('This method is not supported.')
		expect(html).not.toContain('did not provide')
		const unavailable = { status: 503, statusText: 'Service Unavailable', internal: false, data: 'x' }
		expect(await render(unavailable, 'et')).toContain('Teenus on ajutiselt kättesaamatu')
	})
})
