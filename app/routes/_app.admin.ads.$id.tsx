import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { SortOrderAndActive } from '~/components/admin-fields'
import { ButtonLink } from '~/components/button-link'
import { Field, FileField, FormActions, FormAlert, FormSecurity, SelectField, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { AdSchema } from '~/domain/admin/admin'
import { deleteAd, getAd, saveAd } from '~/domain/admin/catalog.server'
import { supportedLanguages } from '~/i18n/config'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

const adIdOf = (param: string | undefined) => (param === 'new' ? null : idParam(param))

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const adId = adIdOf(params.id)
	const ad = adId ? await getAd(adId) : null
	if (adId && !ad) throw new Response('Not found', { status: 404 })
	return { meta: { title: t(ad ? 'ads.editTitle' : 'ads.newTitle') }, ad }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const adId = adIdOf(params.id)
		if (formData.get('intent') === 'delete' && adId) {
			await or404(deleteAd(admin.id, adId))
			return redirectWithToast('/admin/ads', { type: 'success', key: 'admin:ads.deleted' }, { request })
		}
		const submission = parseWithZod(formData, { schema: AdSchema })
		const uploads = await readFormUploads(formData, admin.id, { image: { purpose: 'ad_image', max: 1 } })
		if (submission.status !== 'success' || !uploads.ok) {
			return data({ result: submission.reply(), imageErrors: uploads.errors.image ?? [], held: await uploads.hold() }, { status: uploads.status })
		}
		try {
			await or404(saveAd(admin.id, adId, submission.value, uploads.files.image[0]))
		} catch (error) {
			const held = await uploads.hold()
			return handleDomainError(error, { as: 'data', data: (text) => ({ result: submission.reply(), imageErrors: [text], held }) })
		}
		return redirectWithToast('/admin/ads', { type: 'success', key: 'admin:ads.saved' }, { request })
	})
}

export const meta = routeMeta<typeof loader>()

export default function AdminAdPage() {
	const { t } = useTranslation('admin')
	const { ad } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: `ad-${ad?.id ?? 'new'}`,
		lastResult: actionData?.result,
		defaultValue: {
			adsType: ad?.adsType ?? 'image',
			placement: ad?.placement ?? 'Header',
			language: ad?.language ?? '',
			adsLink: ad?.adsLink ?? '',
			content: ad?.content ?? '',
			sortOrder: String(ad?.sortOrder ?? 0),
			active: ad ? (ad.active ? 'on' : undefined) : 'on',
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: AdSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={t(ad ? 'ads.editTitle' : 'ads.newTitle')}
				actions={
					<ButtonLink to="/admin/ads" kind="ghost" size="small">{t('ads.back')}</ButtonLink>
				}
			/>
			<section className="card">
				<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
					<FormSecurity />
					<FormAlert errors={form.errors} />
					<div className="admin-grid">
						<SelectField
							label={t('ads.type')}
							required
							selectProps={getSelectProps(fields.adsType)}
							options={(['image', 'html'] as const).map((value) => ({ value, label: t(`ads.types.${value}`) }))}
							errors={fields.adsType.errors}
						/>
						<SelectField
							label={t('ads.placement')}
							required
							selectProps={getSelectProps(fields.placement)}
							options={(['Header', 'Footer'] as const).map((value) => ({ value, label: t(`ads.placements.${value}`) }))}
							errors={fields.placement.errors}
						/>
						<SelectField
							label={t('ads.language')}
							help={t('ads.languageHelp')}
							required
							selectProps={getSelectProps(fields.language)}
							placeholder={t('ads.chooseLanguage')}
							options={supportedLanguages.map((value) => ({ value, label: t(`common:language.${value}`) }))}
							errors={fields.language.errors}
						/>
					</div>
					<fieldset className="card">
						<legend>{t('ads.types.image')}</legend>
						{ad?.image ? <img src={ad.image} alt={t('settings.current')} className="admin-preview" /> : null}
						<FileField
							id="ad-image"
							name="image"
							label={t('ads.image')}
							help={t('settings.imageHelp')}
							accept="images"
							errors={actionData?.imageErrors}
							held={actionData?.held?.image}
						/>
						<Field label={t('ads.link')} help={t('ads.linkHelp')} inputProps={getInputProps(fields.adsLink, { type: 'text' })} errors={fields.adsLink.errors} />
					</fieldset>
					<fieldset className="card">
						<legend>{t('ads.types.html')}</legend>
						<TextareaField
							label={t('ads.content')}
							help={t('content.bodyHelp')}
							textareaProps={{ ...getTextareaProps(fields.content), rows: 6, spellCheck: false }}
							errors={fields.content.errors}
						/>
					</fieldset>
					<div className="admin-row-form">
						<SortOrderAndActive sortOrder={fields.sortOrder} active={fields.active} activeLabel={t('ads.activeLabel')} />
					</div>
					<FormActions submit={t('ads.submit')} />
				</Form>
			</section>
			{ad ? (
				<Form method="post" className="form admin-danger">
					<FormSecurity intent="delete" />
					<button type="submit" className="button button--danger">
						{t('ads.delete')}
					</button>
				</Form>
			) : null}
		</>
	)
}
