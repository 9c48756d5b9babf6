"""
MiniFASNet's two passive print/screen models as ONNX files, made from the PyTorch weights of
Silent-Face-Anti-Spoofing (minivision-ai, Apache-2.0) that ../shared/fixtures/liveness holds.

Run from the repository's root, once, when the weights or the export change:

    pip install torch==2.13.0+cpu onnx==1.23.1 onnxruntime==1.30.0
    python3 models/minifasnet/export.py [--out FOLDER] [weights folder]

It writes the two .onnx files (beside this script, or in FOLDER), checks that they answer as
PyTorch does on the same input, and fails if they differ from the checksums in SHA256SUMS, unless,
written to FOLDER, they are the shipped files but for the last bit or so of some weights: PyTorch
folds each batch norm into its convolution, and that rounding is not the same on every machine
with the same pinned versions. The tests rebuild them so. With no SHA256SUMS yet, it writes one.

The network is MobileFaceNet's shape as the paper (Silent-Face, "MiniFASNet") and the weights'
own layer names give it: 3x3 convolutions with batch norm and PReLU, depth-wise separable blocks
with a linear bottleneck, residual stages whose last block carries squeeze-and-excitation in the
SE variant, a 5x5 depth-wise "global" convolution, and a 128-wide embedding before three logits.
The channel widths are not fixed: each pruned model has its own, read here from the weights.
Input: [N, 3, 80, 80], BGR, 0-255 (not scaled); output: 3 logits, index 1 "real".
"""
import hashlib
import warnings
import sys
from collections import OrderedDict
from pathlib import Path

import torch
from torch import nn

HERE = Path(__file__).resolve().parent
MODELS = {
    # file written: (weights file, whether its stages end in squeeze-and-excitation)
    'minifasnet-v2-2.7.onnx': ('2.7_80x80_MiniFASNetV2.pth', False),
    'minifasnet-v1se-4.0.onnx': ('4_0_0_80x80_MiniFASNetV1SE.pth', True),
}


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, kernel=1, stride=1, padding=0, groups=1, activation=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel, stride, padding, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        if activation:
            self.prelu = nn.PReLU(cout)

    def forward(self, x):
        x = self.bn(self.conv(x))
        return self.prelu(x) if hasattr(self, 'prelu') else x


class SqueezeExcite(nn.Module):
    def __init__(self, channels, hidden):
        super().__init__()
        self.fc1 = nn.Conv2d(channels, hidden, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.fc2 = nn.Conv2d(hidden, channels, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        w = x.mean(dim=(2, 3), keepdim=True)
        w = torch.sigmoid(self.bn2(self.fc2(torch.relu(self.bn1(self.fc1(w))))))
        return x * w


class DepthWise(nn.Module):
    """1x1 expand, 3x3 depth-wise (stride 1 or 2), 1x1 linear projection; a residual when the shape is kept."""

    def __init__(self, cin, hidden, cout, stride, residual, se_hidden=0):
        super().__init__()
        self.residual = residual
        self.conv = ConvBlock(cin, hidden)
        self.conv_dw = ConvBlock(hidden, hidden, 3, stride, 1, groups=hidden)
        self.project = ConvBlock(hidden, cout, activation=False)
        if se_hidden:
            self.se_module = SqueezeExcite(cout, se_hidden)

    def forward(self, x):
        y = self.project(self.conv_dw(self.conv(x)))
        if hasattr(self, 'se_module'):
            y = self.se_module(y)
        return x + y if self.residual else y


class Stage(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.model = nn.Sequential(*blocks)

    def forward(self, x):
        return self.model(x)


class MiniFASNet(nn.Module):
    def __init__(self, weights):
        super().__init__()
        width = lambda key: weights[key].shape[0]

        def block(prefix, stride, residual):
            se = f'{prefix}.se_module.fc1.weight'
            return DepthWise(weights[f'{prefix}.conv.conv.weight'].shape[1], width(f'{prefix}.conv.conv.weight'),
                             width(f'{prefix}.project.conv.weight'), stride, residual, width(se) if se in weights else 0)

        def stage(name):
            count = len({key.split('.')[2] for key in weights if key.startswith(f'{name}.model.')})
            return Stage([block(f'{name}.model.{i}', 1, True) for i in range(count)])

        self.conv1 = ConvBlock(3, width('conv1.conv.weight'), 3, 2, 1)
        self.conv2_dw = ConvBlock(width('conv1.conv.weight'), width('conv2_dw.conv.weight'), 3, 1, 1, groups=width('conv2_dw.conv.weight'))
        self.conv_23 = block('conv_23', 2, False)
        self.conv_3 = stage('conv_3')
        self.conv_34 = block('conv_34', 2, False)
        self.conv_4 = stage('conv_4')
        self.conv_45 = block('conv_45', 2, False)
        self.conv_5 = stage('conv_5')
        self.conv_6_sep = ConvBlock(weights['conv_6_sep.conv.weight'].shape[1], width('conv_6_sep.conv.weight'))
        kernel = weights['conv_6_dw.conv.weight'].shape[2]
        self.conv_6_dw = ConvBlock(width('conv_6_dw.conv.weight'), width('conv_6_dw.conv.weight'), kernel, groups=width('conv_6_dw.conv.weight'), activation=False)
        self.linear = nn.Linear(weights['linear.weight'].shape[1], width('linear.weight'), bias=False)
        self.bn = nn.BatchNorm1d(width('linear.weight'))
        self.prob = nn.Linear(width('linear.weight'), width('prob.weight'), bias=False)

    def forward(self, x):
        for layer in (self.conv1, self.conv2_dw, self.conv_23, self.conv_3, self.conv_34, self.conv_4, self.conv_45, self.conv_5, self.conv_6_sep, self.conv_6_dw):
            x = layer(x)
        return self.prob(self.bn(self.linear(torch.flatten(x, 1))))


def load(path):
    state = torch.load(path, map_location='cpu', weights_only=True)
    # Saved from DataParallel: every name starts with "module.".
    state = OrderedDict((key.removeprefix('module.'), value) for key, value in state.items())
    model = MiniFASNet(state)
    model.load_state_dict(state, strict=True)
    return model.eval()


def main():
    # The TorchScript exporter (dynamo=False, as the pinned bytes were made) says it is the old one.
    warnings.filterwarnings('ignore', category=DeprecationWarning)
    import numpy as np
    import onnxruntime

    args = sys.argv[1:]
    out_dir = HERE
    if args[:1] == ['--out']:
        out_dir, args = Path(args[1]), args[2:]
    weights_dir = Path(args[0]) if args else HERE.parents[1] / '..' / 'shared' / 'fixtures' / 'liveness' / 'models-minifasnet'
    torch.manual_seed(0)
    sample = torch.rand(2, 3, 80, 80) * 255
    sums = []
    for name, (weights, _) in MODELS.items():
        model = load(weights_dir / weights)
        out = out_dir / name
        torch.onnx.export(model, sample, out, opset_version=13, dynamo=False, input_names=['input'], output_names=['logits'],
                          dynamic_axes={'input': {0: 'n'}, 'logits': {0: 'n'}})
        with torch.no_grad():
            expected = model(sample).numpy()
        got = onnxruntime.InferenceSession(str(out), providers=['CPUExecutionProvider']).run(None, {'input': sample.numpy()})[0]
        assert np.allclose(expected, got, atol=1e-3), f'{name}: ONNX answers {got} where PyTorch answers {expected}'
        sums.append(f'{hashlib.sha256(out.read_bytes()).hexdigest()}  {name}\n')
    committed = HERE / 'SHA256SUMS'
    if not committed.exists():
        committed.write_text(''.join(sums))
    elif committed.read_text() != ''.join(sums):
        # Folding each batch norm into its convolution rounds the last bit of some weights
        # differently from one machine to another (80 of 137 tensors, by up to 2.2e-7 of each one's
        # largest weight, with the same pinned versions): written elsewhere, the files must then be
        # the shipped ones but for that rounding.
        problems = [problem for name in MODELS if (problem := differs(out_dir / name, HERE / name))] if out_dir != HERE else ['written over the shipped files']
        if problems:
            sys.exit(f'The files differ from SHA256SUMS ({"; ".join(problems)}):\n{"".join(sums)}')
        print(f'The shipped files but for the batch norms\' rounding (within {TOLERANCE} of each tensor\'s largest weight):')
    print(''.join(sums), end='')


#: How far a rebuilt weight may lie from the shipped one, as a share of its tensor's largest: about
#: eight units in the last place of a float32 there (seen: 2.2e-7).
TOLERANCE = 1e-6


def differs(made, shipped):
    """What makes `made` another network than `shipped`, or None: the same graph, and every weight within TOLERANCE."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    a, b = onnx.load(made), onnx.load(shipped)
    a_init = {t.name: numpy_helper.to_array(t) for t in a.graph.initializer}
    b_init = {t.name: numpy_helper.to_array(t) for t in b.graph.initializer}
    del a.graph.initializer[:], b.graph.initializer[:]
    if a.SerializeToString() != b.SerializeToString():
        return f'{made.name}: another graph'
    if a_init.keys() != b_init.keys() or any(a_init[k].shape != b_init[k].shape or a_init[k].dtype != b_init[k].dtype for k in a_init):
        return f'{made.name}: other weights'
    for name, value in a_init.items():
        if value.dtype != np.float32:
            if not np.array_equal(value, b_init[name]):
                return f'{made.name}: {name} differs'
            continue
        scale = float(np.abs(b_init[name]).max(initial=0))
        if float(np.abs(value - b_init[name]).max(initial=0)) > TOLERANCE * scale:
            return f'{made.name}: {name} differs by more than {TOLERANCE} of its largest weight'
    return None


if __name__ == '__main__':
    main()
