import { data, type LinksFunction, type LoaderFunctionArgs } from 'react-router'
import {
	Links,
	Meta,
	Outlet,
	Scripts,
	ScrollRestoration,
	useLoaderData,
	useRouteError,
	useRouteLoaderData,
	type ShouldRevalidateFunction,
} from 'react-router'
import toastStyles from 'react-toastify/ReactToastify.css?url'
import { useChangeLanguage } from '~/i18n/translation'
import { AuthenticityTokenProvider } from 'remix-utils/csrf/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Toaster } from '~/components/toaster'
import { getSiteData } from '~/domain/site/site.server'
import { fallbackLanguage } from '~/i18n/config'
import { getLanguage, getRequestedLanguage, languageCookie } from '~/i18n/i18n.server'
import appStyles from '~/styles/app.css?url'
import publicStyles from '~/styles/public.css?url'
import { enforceRouteAccess, getOptionalUser, hasStaleToken } from '~/utils/auth.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { combineHeaders } from '~/utils/http'
import { isSharedPage, isSharedRequest } from '~/utils/http-cache'
import { useNonce } from '~/utils/nonce-provider'
import { type RootLoaderData } from '~/root-data'
import { getToast } from '~/utils/toast.server'

export const links: LinksFunction = () => [
	{ rel: 'stylesheet', href: appStyles },
	// Directory cards, stars and ad areas: used by the public pages and the signed-in shell alike.
	{ rel: 'stylesheet', href: publicStyles },
	{ rel: 'stylesheet', href: toastStyles },
]

export async function loader({ request }: LoaderFunctionArgs) {
	// Spec §6 on every page: the signed-in-only and role-only paths of spec §2.
	await enforceRouteAccess(request)
	const language = await getLanguage(request)
	const requested = getRequestedLanguage(request)
	const [user, dropToken] = [await getOptionalUser(request), await hasStaleToken(request)]
	// A shared page (app/utils/http-cache.ts) has no form that posts: no CSRF token, so a
	// cache may give it to anyone (and no cookie is set for it).
	const shared = isSharedRequest(request)
	const [site, { toast, headers: toastHeaders }, [csrfToken, csrfCookie], rememberedLanguage] = await Promise.all([
		getSiteData(),
		getToast(request, { dropToken }),
		shared ? (['', null] as const) : commitCsrfToken(request),
		languageCookie.parse(request.headers.get('Cookie')),
	])
	const headers = combineHeaders(
		toastHeaders,
		csrfCookie ? { 'Set-Cookie': csrfCookie } : null,
		// ?lng= picks the language and the cookie remembers it (spec §1, works without JavaScript).
		requested && requested !== rememberedLanguage ? { 'Set-Cookie': await languageCookie.serialize(requested) } : null,
	)
	const account = user
		? { firstName: user.firstName, lastName: user.lastName, role: user.role, workshopName: user.workshop?.workshopName ?? null }
		: null
	const rootData: RootLoaderData = { language, site, toast, csrfToken, user: account }
	return data(rootData, { headers })
}

// Leaving a shared page for one with a form: load the token it went without.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
	defaultShouldRevalidate || (isSharedPage(currentUrl.pathname) && !isSharedPage(nextUrl.pathname))

export function Layout({ children }: { children: React.ReactNode }) {
	const rootData = useRouteLoaderData<typeof loader>('root')
	const nonce = useNonce()
	const language = rootData?.language ?? fallbackLanguage
	return (
		<html lang={language} dir="ltr">
			<head>
				<meta charSet="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				<meta name="theme-color" content="#0b3d91" />
				{rootData?.site.favicon ? <link rel="icon" href={rootData.site.favicon} /> : null}
				<Meta />
				<Links />
			</head>
			<body>
				{children}
				<ScrollRestoration nonce={nonce} />
				<Scripts nonce={nonce} />
			</body>
		</html>
	)
}

export default function App() {
	const { language, toast, csrfToken } = useLoaderData<typeof loader>()
	useChangeLanguage(language)
	return (
		<AuthenticityTokenProvider token={csrfToken}>
			<Outlet />
			<Toaster toast={toast} />
		</AuthenticityTokenProvider>
	)
}

/** The last line of defence: spec §8, "Unexpected Application Error!" with the error text. */
export function ErrorBoundary() {
	const error = useRouteError()
	return <GeneralErrorBoundary error={error} />
}
