import { Form, type FormInstance, type FormProps, Modal } from 'antd';
import type { ReactNode } from 'react';
import { t } from '../lib/i18n';

export interface FormDialogProps<Values> {
  open: boolean;
  title: string;
  /** the confirm button's text, e.g. 创建 or 保存 */
  okText: string;
  /** the save is under way: the confirm button spins */
  saving: boolean;
  form: FormInstance<Values>;
  /** the form's own props (name, initial values, onFinish …); the layout is vertical */
  formProps: Omit<FormProps<Values>, 'form' | 'layout'>;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A dialog that is a form: the confirm button submits it, 取消 closes, and the form is wrapped around
 * the whole dialog (so Enter in a field submits) and forgotten when the dialog closes.
 */
export function FormDialog<Values>({
  open,
  title,
  okText,
  saving,
  form,
  formProps,
  onClose,
  children,
}: FormDialogProps<Values>) {
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('取消')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      modalRender={(dialog) => (
        <Form<Values> {...formProps} form={form} layout="vertical">
          {dialog}
        </Form>
      )}
    >
      {children}
    </Modal>
  );
}
