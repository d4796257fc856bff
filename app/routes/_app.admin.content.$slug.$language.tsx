import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { Field, FormActions, FormSecurity, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { contentLanguages, ContentPageSchema, contentSlugs } from '~/domain/admin/admin'
import { getContentPageForEdit, saveContentPage } from '~/domain/admin/content.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { redirectWithToast } from '~/utils/toast.server'

const publicPaths = { 'about-us': '/about', 'terms-and-conditions': '/terms-conditions', 'privacy-policy': '/privacy-poicy' } as const

function pageParams(params: Record<string, string | undefined>) {
	const slug = contentSlugs.find((s) => s === params.slug)
	const language = contentLanguages.find((l) => l === params.language)
	if (!slug || !language) throw new Response('Not found', { status: 404 })
	return { slug, language }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const { slug, language } = pageParams(params)
	const t = getFixedT(await getLanguage(request), 'admin')
	const page = await getContentPageForEdit(slug, language)
	return {
		meta: { title: t('content.editTitle', { page: t(`content.slugs.${slug}`), language: t(`common:language.${language}`) }) },
		slug,
		language,
		page: page ?? { title: '', bodyHtml: '' },
		publicPath: `${publicPaths[slug]}?lng=${language}`,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const { slug, language } = pageParams(params)
	const submission = parseWithZod(formData, { schema: ContentPageSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	await saveContentPage(admin.id, slug, language, submission.value)
	return redirectWithToast(new URL(request.url).pathname, { type: 'success', key: 'admin:content.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function AdminContentEditPage() {
	const { t } = useTranslation('admin')
	const { slug, language, page, publicPath } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: `content-${slug}-${language}`,
		lastResult: actionData?.result,
		defaultValue: page,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ContentPageSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={t('content.editTitle', { page: t(`content.slugs.${slug}`), language: t(`common:language.${language}`) })}
				actions={
					<>
						<ButtonLink to="/admin/content" kind="ghost" size="small">{t('content.back')}</ButtonLink>
						<a href={publicPath} className="button button--ghost button--small">
							{t('content.view')}
						</a>
					</>
				}
			/>
			<section className="card">
				<Form method="post" className="form" {...getFormProps(form)}>
					<FormSecurity />
					<Field label={t('content.pageTitle')} required inputProps={getInputProps(fields.title, { type: 'text' })} errors={fields.title.errors} />
					<TextareaField
						label={t('content.body')}
						required
						help={t('content.bodyHelp')}
						textareaProps={{ ...getTextareaProps(fields.bodyHtml), rows: 18, spellCheck: false }}
						errors={fields.bodyHtml.errors}
					/>
					<FormActions submit={t('content.submit')} />
				</Form>
			</section>
		</>
	)
}
