import { RemixBrowser } from '@remix-run/react'
import i18next from 'i18next'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { bundleBackend } from '~/i18n/bundle-backend'
import { fallbackLanguage, i18nConfig, isLanguage } from '~/i18n/config'

async function hydrate() {
	const lang = document.documentElement.lang
	await i18next
		.use(initReactI18next)
		.use(bundleBackend)
		// Every key exists in every language (tests/unit/locales.test.ts): no fallback bundle to fetch.
		.init({ ...i18nConfig, lng: isLanguage(lang) ? lang : fallbackLanguage, fallbackLng: false, load: 'currentOnly' })

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
