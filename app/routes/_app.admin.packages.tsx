import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ActiveCheckbox } from '~/components/admin-fields'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { PackageSchema } from '~/domain/admin/admin'
import { listPackages, updatePackage, type AdminPackage } from '~/domain/admin/catalog.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { routeMeta } from '~/utils/meta'
import { formatMoneyInput } from '~/utils/money'
import { readForm } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'


export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const list = await listPackages()
	return { meta: { title: t('packages.title') }, packages: list.map((p) => ({ ...p, slug: encodeId(p.id) })) }
}

export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const packageId = decodeId(String(formData.get('package') ?? ''))
	if (!packageId) throw new Response('Not found', { status: 404 })
	const submission = parseWithZod(formData, { schema: PackageSchema })
	if (submission.status !== 'success') return data({ packageId, result: submission.reply() }, { status: 400 })
	try {
		await or404(updatePackage(admin.id, packageId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission, data: { packageId } })
	}
	return redirectWithToast('/admin/packages', { type: 'success', key: 'admin:packages.saved' }, { request })
}

export const meta = routeMeta<typeof loader>()

function PackageForm({ item }: { item: AdminPackage & { slug: string } }) {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: `package-${item.slug}`,
		lastResult: actionData?.packageId === item.id ? actionData.result : undefined,
		defaultValue: {
			nameEt: item.nameEt,
			nameEn: item.nameEn,
			nameRu: item.nameRu,
			price: formatMoneyInput(item.priceCents, language),
			offersPerMonth: item.offersPerMonth === null ? '' : String(item.offersPerMonth),
			active: item.active ? 'on' : undefined,
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PackageSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<section className="card" aria-labelledby={`package-${item.slug}-title`}>
			<h2 id={`package-${item.slug}-title`}>
				{item.nameEn} <span className="admin-muted">({item.code})</span>
			</h2>
			<Form method="post" className="form" {...getFormProps(form)}>
				<FormSecurity />
				<FormAlert errors={form.errors} />
				<input type="hidden" name="package" value={item.slug} />
				{(['nameEt', 'nameEn', 'nameRu'] as const).map((name) => (
					<Field key={name} label={t(`packages.${name}`)} required inputProps={getInputProps(fields[name], { type: 'text' })} errors={fields[name].errors} />
				))}
				<div className="admin-row-form">
					<Field
						label={t('packages.price')}
						required
						help={t('packages.priceHelp')}
						inputProps={{ ...getInputProps(fields.price, { type: 'text' }), inputMode: 'decimal' }}
						errors={fields.price.errors}
					/>
					<Field
						label={t('packages.offersPerMonth')}
						help={t('packages.offersHelp')}
						inputProps={{ ...getInputProps(fields.offersPerMonth, { type: 'text' }), inputMode: 'numeric' }}
						errors={fields.offersPerMonth.errors}
					/>
				</div>
				<ActiveCheckbox field={fields.active} label={t('packages.active')} />
				<FormActions submit={t('packages.submit')} />
			</Form>
		</section>
	)
}

export default function AdminPackagesPage() {
	const { t } = useTranslation('admin')
	const { packages } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('packages.title')} subtitle={t('packages.subtitle')} />
			{packages.length ? (
				<div className="admin-grid">
					{packages.map((item) => (
						<PackageForm key={item.id} item={item} />
					))}
				</div>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
		</>
	)
}
