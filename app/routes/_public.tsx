import { type LoaderFunctionArgs } from 'react-router'
import { isRouteErrorResponse, Outlet, useMatches, useRouteError, useRouteLoaderData, type MetaFunction, type ShouldRevalidateFunction } from 'react-router'
import { AdSlot } from '~/components/ad-slot'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { SiteFooter } from '~/components/site-footer'
import { SiteHeader } from '~/components/site-header'
import { loadAdSlots } from '~/domain/site/ads.server'
import { countVisitInBackground } from '~/domain/site/visits.server'
import { fallbackLanguage } from '~/i18n/config'
import { getLanguage } from '~/i18n/i18n.server'
import { type RootLoader, type RootLoaderData } from '~/root-data'
import { adsAllowed, type AdsHandle } from '~/utils/ad-places'
import { siteName } from '~/utils/meta'


/** The public pages' texts live in the `public` namespace; the browser loads it before hydrating. */

export async function loader({ request, context }: LoaderFunctionArgs) {
	// One visit per visitor per day (spec §7 visit-insert), counted without making the page wait.
	countVisitInBackground(request, context)
	return { ads: await loadAdSlots(await getLanguage(request)) }
}

/** The public pages may show ads; a page that may not says `ads: false` (app/utils/ad-places.ts). */
export const handle: AdsHandle = { ads: true }

// The ads depend on the language, not the page: load them with the document, and again only when
// the language changes (?lng=) or after a form was posted.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
	(formMethod && formMethod !== 'GET') || currentUrl.searchParams.get('lng') !== nextUrl.searchParams.get('lng') ? defaultShouldRevalidate : false

/** Pages give their own titles; a page that failed (a missing workshop) gets its status: "404 · Autohub". */
export const meta: MetaFunction<typeof loader, { root: RootLoader }> = ({ error, matches }) => {
	const site = siteName(matches) ?? 'Autohub'
	return [{ title: isRouteErrorResponse(error) ? `${error.status} · ${site}` : site }]
}

/** The public frame: header, the header ad area, page, the footer ad area, footer with the address block. */
function PublicFrame({ children }: { children: React.ReactNode }) {
	const root = useRouteLoaderData<RootLoaderData>('root')
	const layout = useRouteLoaderData<typeof loader>('routes/_public')
	const ads = adsAllowed(useMatches()) ? layout?.ads : undefined
	if (!root) return <main id="main">{children}</main>
	return (
		<div className="page">
			<SiteHeader site={root.site} />
			<AdSlot placement="Header" ads={ads?.header} />
			<main id="main" className="page__main" tabIndex={-1}>
				{children}
			</main>
			<AdSlot placement="Footer" ads={ads?.footer} />
			<SiteFooter site={root.site} language={root.language ?? fallbackLanguage} />
		</div>
	)
}

export default function PublicLayout() {
	return (
		<PublicFrame>
			<Outlet />
		</PublicFrame>
	)
}

/** A missing workshop or page keeps the header and footer, in the reader's language. */
export function ErrorBoundary() {
	const error = useRouteError()
	return (
		<PublicFrame>
			<GeneralErrorBoundary error={error} />
		</PublicFrame>
	)
}
