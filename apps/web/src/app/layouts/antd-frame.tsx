import { Outlet } from 'react-router-dom';
import { AntdProvider } from '../../components/antd-provider';

/**
 * A route without a path around the screens built from antd (/use, /store, /auth and /user): antd's
 * locale and theme, loaded with the first of them. /home stays outside, drawn without antd.
 */
export function Component() {
  return (
    <AntdProvider>
      <Outlet />
    </AntdProvider>
  );
}
