import { type SiteData } from '~/domain/site/site'
import { type Language } from '~/i18n/config'
import { type Role } from '~/utils/route-access'
import { type Toast } from '~/utils/toast'

/**
 * What the root loader (app/root.tsx) gives every page: the pages, components and `meta` helpers
 * read it with `useRouteLoaderData<RootLoaderData>('root')`. Written out here, below root.tsx,
 * rather than `typeof loader` there, so that what root.tsx imports can name it without an import
 * cycle (decision 0116).
 */
export type RootLoaderData = {
	language: Language
	site: SiteData
	toast: Toast | null
	/** Empty on a shared page, which has no form that posts. */
	csrfToken: string
	user: { firstName: string; lastName: string; role: Role; workshopName: string | null } | null
}

/** The root loader as a `meta` function's `matches` need it: React Router types them by their loaders. */
export type RootLoader = () => Promise<RootLoaderData>
