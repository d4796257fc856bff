import { useRouteLoaderData } from 'react-router'
import { type RootLoaderData } from '~/root-data'
import { rolesFor } from '~/utils/route-access'
import { withRedirectTo } from '~/utils/safe-redirect'

/**
 * Where a link to the request form (`/new-service-register?workshop=…&at=…`) leads the reader: a
 * visitor logs in (or registers) on the way and comes back to it; a signed-in user whose role may
 * not open it (the route table of spec §2) gets null, and the page shows no link.
 */
export function useRequestFormHref(): (path: string) => string | null {
	const role = useRouteLoaderData<RootLoaderData>('root')?.user?.role
	if (role === undefined) return (path) => withRedirectTo('/login', path)
	const mayAsk = Boolean(rolesFor('/new-service-register')?.includes(role))
	return (path) => (mayAsk ? path : null)
}
