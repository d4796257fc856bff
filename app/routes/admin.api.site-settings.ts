import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { shortCache } from '~/utils/public-api.server'
import { absoluteUrl } from '~/utils/seo.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { getSiteData } from '~/domain/site/site.server'
import { apiJson } from '~/utils/api.server'
import { logger } from '~/utils/logger.server'

/**
 * GET /admin/api/site-settings (spec §7): `{ responseCode: 1, responseData: site data }`.
 * No token. On failure `{ responseCode: 0, responseData: null }` with a 500 (the spec's client only logs it).
 */
export async function loader(_: LoaderFunctionArgs) {
	try {
		const site = await getSiteData()
		return apiJson(
			{
				responseCode: 1,
				responseData: {
					appname: site.appname,
					favicon: absoluteUrl(site.favicon),
					logo: absoluteUrl(site.logo),
					siteAddress: site.siteAddress,
					siteAddressEstonian: site.siteAddressEstonian,
					siteAddressRussian: site.siteAddressRussian,
					siteEmail: site.siteEmail,
					countryCode: site.countryCode,
					sitePhoneNumber: site.sitePhoneNumber,
					facebookLink: site.facebookLink,
					twitterLink: site.twitterLink,
					instagramLink: site.instagramLink,
					linkedinLink: site.linkedinLink,
				},
			},
			{ cors: true, headers: shortCache },
		)
	} catch (error) {
		logger.error('site settings failed', { error: error instanceof Error ? error.message : String(error) })
		return apiJson({ responseCode: 0, responseData: null }, { status: 500, cors: true })
	}
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
