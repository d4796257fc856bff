import { type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { CHAT_NOTIFICATION_KEY, notificationTarget } from '~/domain/messaging/notifications'
import { listNotifications, readNotification } from '~/domain/messaging/notifications.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId, readBodyId } from '~/utils/public-id'
import { or404 } from '~/utils/route-helpers.server'
import { redirect } from 'react-router'

/** The bell without JavaScript: the newest notifications, each a form that marks it read and opens its target. */
export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'account')
	return { meta: { title: t('notifications.title') }, ...(await listNotifications(user.id, language)) }
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const { notification } = await or404(readNotification(user.id, readBodyId(formData.get('id')), await getLanguage(request)))
	// A chat notice opens the chat itself (the dialog with JavaScript).
	if (notification.messageKey === CHAT_NOTIFICATION_KEY) return redirect(`/chat/${encodeId(notification.receivedId)}`)
	return redirect(notificationTarget({ id: notification.id, type: notification.type, received_id: notification.receivedId }))
}

export const meta = routeMeta<typeof loader>()

export default function NotificationsPage() {
	const { t } = useTranslation('account')
	const language = useLanguage()
	const { notifications, unreadNotifications } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('notifications.title')} subtitle={t('notifications.unread', { count: unreadNotifications })} />
			{notifications.length === 0 ? (
				<p className="empty">{t('common:empty.noNotifications')}</p>
			) : (
				<ul className="notification-list">
					{notifications.map((item) => (
						<li key={item.id}>
							<Form method="post" className="notification-list__form">
								<FormSecurity />
								<input type="hidden" name="id" value={item.id} />
								<button type="submit" className={`notification-item${item.is_read ? '' : ' notification-item--unread'}`}>
									<span className="notification-item__message">{item.message}</span>
									<time className="notification-item__time" dateTime={item.created_at}>
										{formatDateTime(item.created_at, language)}
									</time>
									{item.is_read ? null : <span className="visually-hidden">{t('notifications.unreadMark')}</span>}
								</button>
							</Form>
						</li>
					))}
				</ul>
			)}
		</>
	)
}
