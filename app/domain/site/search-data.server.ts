import { type Language } from '~/i18n/config'
import { type JsonLdThing } from '~/utils/json-ld'
import { absoluteUrl, publicOrigin } from '~/utils/seo.server'
import { type SiteData } from './site'

/**
 * What search engines read of the home page (issue 16): the portal as an Organization (name, logo
 * and social links from the site settings) and a WebSite whose SearchAction is the directory's
 * name search, `/workshop-list?q=` (the `q` of app/domain/directory/list-query.ts).
 */
export function siteSearchData(site: SiteData, language: Language): JsonLdThing[] {
	const origin = publicOrigin()
	const sameAs = [site.facebookLink, site.twitterLink, site.instagramLink, site.linkedinLink].filter((link) => /^https?:\/\//i.test(link))
	return [
		{
			'@type': 'Organization',
			'@id': `${origin}/#organization`,
			name: site.appname,
			url: `${origin}/`,
			logo: absoluteUrl(site.logo) ?? undefined,
			email: site.siteEmail || undefined,
			sameAs: sameAs.length ? sameAs : undefined,
		},
		{
			'@type': 'WebSite',
			'@id': `${origin}/#website`,
			name: site.appname,
			url: `${origin}/`,
			inLanguage: language,
			publisher: { '@id': `${origin}/#organization` },
			potentialAction: {
				'@type': 'SearchAction',
				target: { '@type': 'EntryPoint', urlTemplate: `${origin}/workshop-list?q={search_term_string}` },
				'query-input': 'required name=search_term_string',
			},
		},
	]
}
