# pytorch/examples fast_neural_style TransformerNet (reflection padding, instance norm,
# upsampling) and the gram-matrix style loss, on a small synthetic image
import torch


class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(torch.nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = torch.nn.functional.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out


class TransformerNet(torch.nn.Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        self.conv1 = ConvLayer(3, 8, kernel_size=9, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(8, affine=True)
        self.conv2 = ConvLayer(8, 16, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(16, affine=True)
        self.res1 = ResidualBlock(16)
        self.deconv1 = UpsampleConvLayer(16, 8, kernel_size=3, stride=1, upsample=2)
        self.in4 = torch.nn.InstanceNorm2d(8, affine=True)
        self.deconv3 = ConvLayer(8, 3, kernel_size=9, stride=1)
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.relu(self.in4(self.deconv1(y)))
        y = self.deconv3(y)
        return y


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def normalize_batch(batch):
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1) if False else torch.tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


torch.manual_seed(42)
transformer = TransformerNet()
print(transformer.res1)
optimizer = torch.optim.Adam(transformer.parameters(), 1e-3)
mse_loss = torch.nn.MSELoss()
style = torch.rand(1, 3, 16, 16) * 255
gram_style = gram_matrix(normalize_batch(style.clone()))
x = torch.rand(2, 3, 16, 16) * 255
for e in range(4):
    optimizer.zero_grad()
    y = transformer(x)
    y_n = normalize_batch(y.clone())
    x_n = normalize_batch(x.clone())
    content_loss = 1e5 * mse_loss(y_n, x_n)
    gm_y = gram_matrix(y_n)
    style_loss = 1e10 * mse_loss(gm_y, gram_style[:2, :, :].expand_as(gm_y)) / 1e8
    total_loss = content_loss + style_loss
    total_loss.backward()
    optimizer.step()
    print("iter {}\tcontent: {:.4f}\tstyle: {:.4f}\ttotal: {:.4f}".format(
        e + 1, content_loss.item(), style_loss.item(), total_loss.item()))
out = transformer(x).clamp(0, 255)
img = out[0].clone().clamp(0, 255).detach().numpy()
img = img.transpose(1, 2, 0).astype("uint8")
print(img.shape, img.dtype, img[0, 0])
print(torch.nn.functional.interpolate(torch.arange(4.).view(1, 1, 2, 2), scale_factor=2, mode='bilinear', align_corners=False))
print(torch.nn.Upsample(size=(3, 3), mode='nearest')(torch.arange(4.).view(1, 1, 2, 2)))
