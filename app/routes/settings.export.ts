import { createReadableStreamFromReadable } from '@react-router/node'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { collectAccountData, exportBytes, exportFileName, exportZipStream, INLINE_EXPORT_MAX_BYTES, requestBackgroundExport } from '~/domain/privacy/data-export.server'
import { requireUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { redirectWithToast } from '~/utils/toast.server'
import { privateDownload } from '~/utils/http'

/**
 * "Download my data" (issue 21, decision 0111): the signed-in user's own data as a ZIP, made while
 * they wait; when its files are large, made in the background and linked by e-mail. There is no
 * way to name another user: the session is the only input.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: ['customer', 'workshop', 'admin'] })
	const collected = await collectAccountData(user.id)
	if (exportBytes(collected) > INLINE_EXPORT_MAX_BYTES) {
		await requestBackgroundExport(user.id)
		return redirectWithToast('/settings#your-data', { type: 'info', key: 'account:export.preparing' }, { request })
	}
	return privateDownload(createReadableStreamFromReadable(exportZipStream(collected)), { contentType: 'application/zip', filename: exportFileName() })
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
