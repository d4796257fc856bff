import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { apiWorkshopProfile } from '~/domain/directory/api-shapes.server'
import { languageCache, notFound, publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { ReviewPageSchema } from '~/domain/directory/list-query'
import { getWorkshopProfile, getWorkshopReviews } from '~/domain/directory/workshops.server'
import { getLanguage } from '~/i18n/i18n.server'
import { apiJson } from '~/utils/api.server'
import { decodeId } from '~/utils/public-id'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { profileEvents } from '~/counting/events.server'
import { partnerCaching, partnerOf } from '~/domain/partners/partners.server'

/**
 * GET /admin/api/workshop-details/{id}?page=&lng=&partner= — one workshop's public profile, its
 * rating and a page of its reviews with the workshop's replies, newest first (docs/api.md). Its
 * first page is a workshop's page opened in a widget (and, with a key, a widget shown).
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
	publicApi(request, async () => {
		const partner = await partnerOf(request)
		const workshopId = decodeId(params.id)
		if (!workshopId) return notFound(request)
		const language = await getLanguage(request)
		const workshop = await getWorkshopProfile(workshopId, language)
		if (!workshop) return notFound(request)
		const { page } = ReviewPageSchema.parse({ page: new URL(request.url).searchParams.get('page') ?? undefined })
		const reviews = await getWorkshopReviews(workshopId, workshop.reviewCount, page, language)
		countRequestEvents(request, profileEvents('widget', workshopId, page, partner))
		return apiJson(
			{
				status: 200,
				data: {
					workshop: apiWorkshopProfile(workshop),
					rating: { average: workshop.ratingAverage, count: workshop.reviewCount },
					reviews,
				},
			},
			{ cors: true, headers: partnerCaching(partner, languageCache(request, 30)) },
		)
	})

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
