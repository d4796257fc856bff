import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AuthPanel } from '~/components/auth-panel'
import { ButtonLink } from '~/components/button-link'
import { StatusButton, useIsPending } from '~/components/forms'
import { readUnsubscribeToken, unsubscribe, unsubscribeSubject } from '~/domain/messaging/email-preferences.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'

/**
 * `/unsubscribe/{token}`, the link at the foot of every e-mail one may turn off (issue 15): a GET
 * asks, a POST turns that kind off. Also the target of the List-Unsubscribe header, which mail
 * programs POST to with `List-Unsubscribe=One-Click` (RFC 8058), with no cookie and no CSRF
 * token: the signed token is the whole authority here, and no session is used or changed.
 */
const noStore = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }

export async function loader({ request, params }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'common')
	const target = readUnsubscribeToken(params.token ?? '')
	const subject = target ? await unsubscribeSubject(target) : null
	if (!target || !subject) return data({ state: 'invalid' as const, kind: null, email: null, meta: { title: t('unsubscribe.invalidTitle') } }, { status: 404, headers: noStore })
	return data(
		{ state: subject.off ? ('done' as const) : ('ask' as const), kind: target.kind, email: subject.email, meta: { title: t('unsubscribe.title') } },
		{ headers: noStore },
	)
}

export async function action({ request, params }: ActionFunctionArgs) {
	await readForm(request)
	const target = readUnsubscribeToken(params.token ?? '')
	if (!target || !(await unsubscribe(target))) return data({ state: 'invalid' as const }, { status: 404, headers: noStore })
	return data({ state: 'done' as const }, { headers: noStore })
}

export const meta = routeMeta<typeof loader>([{ name: 'robots', content: 'noindex' }])

export default function UnsubscribePage() {
	const { t } = useTranslation('common')
	const loaded = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const pending = useIsPending()
	const state = actionData?.state ?? loaded.state
	if (state === 'invalid') {
		return (
			<AuthPanel title={t('unsubscribe.invalidTitle')} subtitle={t('unsubscribe.invalidText')}>
				<ButtonLink to="/settings#emails">{t('unsubscribe.toSettings')}</ButtonLink>
			</AuthPanel>
		)
	}
	const kind = t(`unsubscribe.kinds.${loaded.kind}`)
	if (state === 'done') {
		return (
			<AuthPanel title={t('unsubscribe.doneTitle')} subtitle={t('unsubscribe.doneText', { kind, email: loaded.email })}>
				<ButtonLink to="/settings#emails" kind="ghost">
					{t('unsubscribe.toSettings')}
				</ButtonLink>
			</AuthPanel>
		)
	}
	return (
		<AuthPanel title={t('unsubscribe.title')} subtitle={t('unsubscribe.question', { kind, email: loaded.email })}>
			<Form method="post" className="form">
				<div className="form-actions">
					<StatusButton type="submit" status={pending ? 'pending' : 'idle'}>
						{t('unsubscribe.submit')}
					</StatusButton>
				</div>
			</Form>
		</AuthPanel>
	)
}
