import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { workshopFeed } from '~/domain/booking/calendar-feed.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { or404 } from '~/utils/route-helpers.server'
import { privateDownload } from '~/utils/http'

/**
 * A workshop's private calendar feed (issue 33): what a phone's or an office calendar subscribes
 * to, by the secret in the address (made and revoked on /workshop-calendar). No session: the token
 * is the key. An unknown or revoked token is a 404, as for a page that does not exist.
 */
export async function loader({ params }: LoaderFunctionArgs) {
	const text = await or404(workshopFeed(params.token ?? ''))
	return privateDownload(text, { contentType: 'text/calendar; charset=utf-8', filename: 'bookings.ics' })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
