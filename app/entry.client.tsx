import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { bundleBackend } from '~/i18n/bundle-backend'
import { fallbackLanguage, i18nConfig, isLanguage } from '~/i18n/config'

/**
 * With single fetch, RemixBrowser suspends on its first render until it has decoded the server's
 * state. In React 18 a key press or click that forces hydration while the root is suspended throws
 * "Root did not complete" (#345; fixed in React 19), so a visitor typing while a slow phone
 * hydrates met an error. Start the decoding and wait for it before hydrating: RemixBrowser throws
 * that promise before it touches any hook, and renders without suspending afterwards.
 */
async function decodeServerState() {
	try {
		RemixBrowser({})
	} catch (thrown) {
		if (thrown instanceof Promise) await thrown
	}
}

async function hydrate() {
	const lang = document.documentElement.lang
	// The dictionaries load while the server's state is decoded.
	await Promise.all([
		i18next
			.use(initReactI18next)
			.use(bundleBackend)
			// Every key exists in every language (tests/unit/locales.test.ts): no fallback bundle to fetch.
			.init({ ...i18nConfig, lng: isLanguage(lang) ? lang : fallbackLanguage, fallbackLng: false, load: 'currentOnly' }),
		decodeServerState(),
	])
	startTransition(() => {
		hydrateRoot(
			document,
			<I18nextProvider i18n={i18next}>
				<StrictMode>
					<RemixBrowser />
				</StrictMode>
			</I18nextProvider>,
		)
	})
}

void hydrate()
