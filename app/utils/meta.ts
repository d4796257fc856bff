import { type MetaDescriptor, type MetaFunction } from 'react-router'
import { type RootLoader } from '~/root-data'

export type PageMeta = {
	title: string
	description?: string
	/** The absolute address of this page in this language (app/utils/seo.server.ts makes it). */
	canonical?: string
	/** The same page in each language, plus `x-default` for readers whose language is not chosen yet. */
	alternates?: Array<{ hrefLang: string; href: string }>
	/** Keep the page out of search engines (a thank-you page, a form's result). */
	noindex?: boolean
	/** The page's language as an Open Graph locale (et_EE, en_GB, ru_RU). */
	locale?: string
}

/**
 * Title ("Page · Site"), description, canonical address and `hreflang` alternates for a page;
 * loaders translate the texts and make the addresses on the server (`pageSeo` in
 * app/utils/seo.server.ts), routes pass `data.meta` here from their `meta` export.
 */
export function pageMeta(page: PageMeta | undefined, siteName: string | undefined): MetaDescriptor[] {
	const site = siteName ?? 'Autohub'
	if (!page) return [{ title: site }]
	const title = page.title === site ? site : `${page.title} · ${site}`
	return [
		{ title },
		...(page.description
			? [
					{ name: 'description', content: page.description },
					{ property: 'og:description', content: page.description },
				]
			: []),
		{ property: 'og:title', content: title },
		{ property: 'og:site_name', content: site },
		{ property: 'og:type', content: 'website' },
		...(page.locale ? [{ property: 'og:locale', content: page.locale }] : []),
		...(page.noindex ? [{ name: 'robots', content: 'noindex, follow' }] : []),
		...(page.canonical
			? [
					{ tagName: 'link', rel: 'canonical', href: page.canonical },
					{ property: 'og:url', content: page.canonical },
				]
			: []),
		...(page.alternates ?? []).map(({ hrefLang, href }) => ({ tagName: 'link', rel: 'alternate', hrefLang, href })),
	]
}

type RootMatches = Parameters<MetaFunction<unknown, { root: RootLoader }>>[0]['matches']

/** The site's name, from the root loader's data (the fallback is pageMeta's). */
export function siteName(matches: RootMatches): string | undefined {
	return matches.find((match) => match.id === 'root')?.data?.site.appname
}

/** The data a loader gives its page (undefined when the loader failed). */
type LoaderData<Loader> = Parameters<MetaFunction<Loader>>[0]['data']

/**
 * The `meta` export of every page whose loader returns `meta: PageMeta` (title, description,
 * canonical and alternates): `export const meta = routeMeta<typeof loader>()`. `extra` tags follow
 * the page's own. A loader without `meta` does not compile.
 */
export function routeMeta<Loader>(
	...[extra = []]: NonNullable<LoaderData<Loader>> extends { meta?: PageMeta } ? [extra?: MetaDescriptor[]] : [error: 'the loader returns no `meta: PageMeta`']
): MetaFunction<Loader, { root: RootLoader }> {
	return ({ data, matches }) => [...pageMeta((data as { meta?: PageMeta } | undefined)?.meta, siteName(matches)), ...(extra as MetaDescriptor[])]
}
