import 'virtual:antd-style/vars/Spin.css';
import 'virtual:antd-style/hook/Spin-Spin.css';

/** antd's Spin (spinning, no tip) with its markup and style sheet, without antd's runtime (see button.tsx). */
export function PlainSpin({ size }: { size?: 'large' }) {
  return (
    <div
      className={`ant-spin${size === 'large' ? ' ant-spin-lg' : ''} ant-spin-spinning ant-spin-section css-var-youju`}
      aria-live="polite"
      aria-busy="true"
    >
      <span className="ant-spin-dot-holder">
        <span className="ant-spin-dot ant-spin-dot-spin">
          <i className="ant-spin-dot-item" />
          <i className="ant-spin-dot-item" />
          <i className="ant-spin-dot-item" />
          <i className="ant-spin-dot-item" />
        </span>
      </span>
    </div>
  );
}
