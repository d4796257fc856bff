import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { partnerOf } from '~/domain/partners/partners.server'
import { MAX_REQUEST_IMAGES, WidgetRequestSchema } from '~/domain/service-flow/widget-request'
import { submitWidgetRequest } from '~/domain/service-flow/widget-requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { type PreparedUpload } from '~/uploads/storage.server'
import { apiJson, apiValidationError } from '~/utils/api.server'
import { clientIp } from '~/utils/client-ip.server'
import { FieldError } from '~/utils/errors'
import { methodNotAllowed } from '~/utils/failures.server'
import { message } from '~/utils/messages'
import { publicApi } from '~/utils/public-api.server'
import { handleDomainError } from '~/utils/route-helpers.server'

/**
 * POST /admin/api/widget-request?lng=&partner= — the "ask for an offer" widget (issue 37, docs/api.md):
 * multipart form data (or urlencoded without photos) with the fields of WidgetRequestSchema and up
 * to three `images`. 200 `{ status, message }`: kept, and a link e-mailed to confirm it; nothing
 * reaches a workshop before. 422 with `errors` per field; 429 over the daily limit; 403 for a
 * partner key refused. A filled `name__confirm` (the bot trap) is answered alike and nothing is kept.
 */
export const loader = ({ request }: LoaderFunctionArgs) => methodNotAllowed(request, 'POST')

export const action = ({ request, context }: ActionFunctionArgs) =>
	publicApi(request, async () => {
		if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
		const language = await getLanguage(request)
		const common = getFixedT(language)
		let partnerId: string | null
		try {
			partnerId = (await partnerOf(request))?.id ?? null
		} catch (error) {
			return handleDomainError(error, { as: 'json', language, cors: true })
		}
		return withFormFiles(request, async (formData) => {
			const sent = (email: string) => apiJson({ status: 200, message: getFixedT(language, 'widgets')('request.checkEmail', { email }) }, { cors: true })
			if (formData.get('name__confirm')) return sent(String(formData.get('email') ?? ''))

			// The photos are checked by content and re-encoded as the portal's are; nobody owns them yet.
			const uploads = await readFormUploads(formData, null, { images: { purpose: 'request_image', max: MAX_REQUEST_IMAGES } })
			const submission = parseWithZod(formData, { schema: WidgetRequestSchema })
			if (submission.status !== 'success' || !uploads.ok) {
				const errors = { ...(submission.status === 'success' ? {} : submission.reply().error), ...uploads.errors }
				return apiValidationError(common, errors, { cors: true })
			}
			try {
				await submitWidgetRequest(submission.value, uploads.files.images as PreparedUpload[], { ip: clientIp(context), language, partnerId })
			} catch (error) {
				if (error instanceof FieldError) return apiValidationError(common, { [error.field]: [message(error.key, error.params)] }, { cors: true })
				return handleDomainError(error, { as: 'json', language, cors: true })
			}
			return sent(submission.value.email)
		})
	})
