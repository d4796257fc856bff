import { Link, useLocation, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { fallbackLanguage, languageCodes, supportedLanguages } from '~/i18n/config'
import { type RootLoaderData } from '~/root-data'

/** EE · EN · RU as plain links (?lng=), so it works without JavaScript; the server remembers the choice. */
export function LanguageSelector() {
	const { t } = useTranslation()
	const location = useLocation()
	const current = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	return (
		<nav className="language-selector" aria-label={t('language.label')}>
			<ul>
				{supportedLanguages.map((language) => {
					const search = new URLSearchParams(location.search)
					search.set('lng', language)
					return (
						<li key={language}>
							<Link
								to={`${location.pathname}?${search}`}
								hrefLang={language}
								lang={language}
								title={t(`language.${language}`)}
								aria-current={language === current ? 'true' : undefined}
								preventScrollReset
							>
								{languageCodes[language]}
							</Link>
						</li>
					)
				})}
			</ul>
		</nav>
	)
}
