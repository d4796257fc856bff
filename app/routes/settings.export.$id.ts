import { createReadableStreamFromReadable } from '@react-router/node'
import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { exportFileName, findExport } from '~/domain/privacy/data-export.server'
import { requireUser } from '~/utils/auth.server'
import { methodNotAllowed } from '~/utils/failures.server'
import { openStoredFile } from '~/uploads/file-store.server'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { privateDownload } from '~/utils/http'

/**
 * A large export made in the background (the e-mail's link): its owner's only, for a week; another
 * user's, an unknown or an expired one is a 404. One still being made says so on /settings.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: ['customer', 'workshop', 'admin'] })
	const made = await or404(findExport(user.id, idParam(params.id)))
	if (!made.readyAt || !made.storageKey) return redirectWithToast('/settings#your-data', { type: 'info', key: 'account:export.preparing' }, { request })
	const stored = await openStoredFile(made.storageKey)
	if (!stored) throw new Response('Not found', { status: 404 })
	return privateDownload(createReadableStreamFromReadable(stored.stream()), {
		contentType: 'application/zip',
		filename: exportFileName(made.readyAt),
		size: stored.size,
	})
}

export const action = ({ request }: ActionFunctionArgs) => methodNotAllowed(request, 'GET')
