import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData, useRevalidator } from 'react-router'
import { useEffect } from 'react'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ChatLog } from '~/components/chat'
import { FormAlert, FormSecurity, StatusButton, TextareaField, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { ChatMessageSchema } from '~/domain/messaging/chat'
import { chatRequestLink, getChat, markChatRead, requireChatPartner, sendChatMessage } from '~/domain/messaging/chat.server'
import { NOTIFICATION_POLL_MS } from '~/domain/messaging/notifications'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { decodeId } from '~/utils/public-id'
import { handleDomainError, idParam } from '~/utils/route-helpers.server'

/** The chat dialog without JavaScript: the conversation with one user, and a form to write. */
async function partnerOr403(request: Request, userId: string, slug: string | undefined) {
	try {
		return await requireChatPartner(userId, idParam(slug))
	} catch (error) {
		throw await handleDomainError(error, { as: 'toast', redirectTo: '/dashboard', request })
	}
}

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	const partner = await partnerOr403(request, user.id, params.slug)
	const t = getFixedT(await getLanguage(request), 'common')
	await markChatRead(user.id, partner.id)
	const [chats, back] = await Promise.all([getChat(user.id, partner.id), chatRequestLink(user.id, partner.id, decodeId(new URL(request.url).searchParams.get('request')))])
	return { meta: { title: t('chat.title') }, partner, chats, back }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const partner = await partnerOr403(request, user.id, params.slug)
	formData.set('receiver_id', partner.id)
	const submission = parseWithZod(formData, { schema: ChatMessageSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await sendChatMessage(user.id, partner.id, submission.value.message)
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	// The same page again, still knowing the request it leads back to.
	return redirect(`/chat/${params.slug}${new URL(request.url).search}#chat-form`)
}

export const meta = routeMeta<typeof loader>()

export default function ChatPage() {
	const { t } = useTranslation()
	const { partner, chats, back } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
	const revalidator = useRevalidator()
	const [form, fields] = useForm({
		id: 'chat-form',
		lastResult: (actionData?.result ?? null) as SubmissionResult<string[]> | null,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ChatMessageSchema }),
		shouldRevalidate: 'onInput',
	})

	// New messages arrive by the same 15-second poll as notifications.
	useEffect(() => {
		const timer = setInterval(() => revalidator.state === 'idle' && revalidator.revalidate(), NOTIFICATION_POLL_MS)
		return () => clearInterval(timer)
	}, [revalidator])

	return (
		<>
			<PageHeader
				title={t('chat.title')}
				subtitle={partner.name}
				actions={back ? <ButtonLink to={back} kind="ghost">{t('chat.backToRequest')}</ButtonLink> : null}
			/>
			<section className="card chat-page">
				<ChatLog entries={chats} partnerId={partner.id} />
				<Form method="post" {...getFormProps(form)} className="chat-form" key={chats.at(-1)?.created_at ?? 'empty'}>
					<FormSecurity />
					<input type="hidden" name="receiver_id" value={partner.id} />
					<FormAlert errors={form.errors} />
					<TextareaField
						label={t('chat.messageLabel')}
						textareaProps={{ ...getTextareaProps(fields.message), rows: 3, placeholder: t('chat.placeholder') }}
						errors={fields.message.errors}
					/>
					<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary">
						{t('chat.send')}
					</StatusButton>
				</Form>
			</section>
		</>
	)
}
