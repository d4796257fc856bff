import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { ContactSchema } from '~/domain/messaging/contact'
import { saveContactMessage } from '~/domain/messaging/contact.server'
import { publicApi } from '~/utils/public-api.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { apiJson, apiValidationError, readPayload } from '~/utils/api.server'
import { clientIp } from '~/utils/client-ip.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { countRequestEvents } from '~/counting/daily-counts.server'
import { contactEvents } from '~/counting/events.server'
import { partnerOf } from '~/domain/partners/partners.server'

/**
 * POST /admin/api/contact-us?lng=&partner= — the contact form as JSON (or form data): `{ name, email, message }`.
 * 200 `{ status, message }` with the thank-you text; 422 `{ status, message, errors: { field: [text] } }`;
 * 429 when the address sent too many. The same schema and rate limit as the portal's form. With a
 * partner's key (403/429 as for every keyed call), a message sent is counted for the partner.
 */
export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')

export const action = ({ request, context }: ActionFunctionArgs) =>
	publicApi(request, async () => {
		if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
		const partner = await partnerOf(request)
		const language = await getLanguage(request)
		const t = getFixedT(language, 'public')
		const payload = await readPayload(request)
		const thanks = () => apiJson({ status: 200, message: t('contact.thanks') }, { cors: true })
		// The widgets' bot trap: a field people never see must stay empty. A bot is thanked and nothing is kept.
		if (payload.get('name__confirm')) return thanks()

		const submission = parseWithZod(payload, { schema: ContactSchema })
		if (submission.status !== 'success') return apiValidationError(getFixedT(language), submission.reply().error, { cors: true })

		try {
			await saveContactMessage({ ...submission.value, language }, { ip: clientIp(context) })
		} catch (error) {
			return handleDomainError(error, { as: 'json', language, cors: true })
		}
		countRequestEvents(request, contactEvents(partner))
		return thanks()
	})
